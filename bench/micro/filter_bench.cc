// Micro-benchmarks of the per-row filter path (src/expr/evaluate) and of row selections
// (src/prune/row_selection): evaluating a bound filter over one batch of decoded columns, and
// turning the result into, and intersecting, selections. Items = rows.
//
//   build/bench/micro/pqsift_filter_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "expr/binder.h"
#include "expr/evaluate.h"
#include "pqsift/array.h"
#include "pqsift/schema.h"
#include "prune/row_selection.h"

namespace pqsift {
namespace {

constexpr int64_t kRows = 65536;  // one batch (the scanner's default --batch-size)
const char* const kCategories[] = {"eu", "us", "apac", "latam", "mea", "na", "emea", "anz"};

// The suite's columns, as the scanner decodes them: id int64 (sorted), qty int32 0..99,
// category string (8 values), all required (no validity bitmap).
struct Batch {
  Schema schema;
  std::shared_ptr<Array> id;
  std::shared_ptr<Array> qty;
  std::shared_ptr<Array> category;
};

SchemaElement Leaf(std::string_view name, PhysicalType type, bool is_string = false) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = Repetition::kRequired;
  if (is_string) {
    LogicalType t;
    t.kind = LogicalType::Kind::kString;
    e.logical_type = t;
  }
  return e;
}

template <typename T>
std::shared_ptr<Array> FixedWidth(std::shared_ptr<const DataType> type, const std::vector<T>& v) {
  auto values = std::make_shared<ArrowBuffer>();
  values->Append(v.data(), v.size() * sizeof(T));
  auto a = std::make_shared<Array>();
  a->type = std::move(type);
  a->length = static_cast<int64_t>(v.size());
  a->buffers = {nullptr, values};
  return a;
}

std::shared_ptr<Array> Strings(const std::vector<std::string>& v) {
  auto offsets = std::make_shared<ArrowBuffer>();
  auto data = std::make_shared<ArrowBuffer>();
  int64_t offset = 0;
  offsets->Append(&offset, sizeof offset);
  for (const std::string& s : v) {
    data->Append(s.data(), s.size());
    offset += static_cast<int64_t>(s.size());
    offsets->Append(&offset, sizeof offset);
  }
  auto a = std::make_shared<Array>();
  a->type = LargeUtf8();
  a->length = static_cast<int64_t>(v.size());
  a->buffers = {nullptr, offsets, data};
  return a;
}

const Batch& TheBatch() {
  static const Batch batch = [] {
    Batch b;
    SchemaElement root;
    root.name = "schema";
    root.num_children = 3;
    const std::vector<SchemaElement> elements = {root, Leaf("id", PhysicalType::kInt64),
                                                 Leaf("qty", PhysicalType::kInt32),
                                                 Leaf("category", PhysicalType::kByteArray, true)};
    b.schema = Schema::Build(elements, nullptr).value();
    std::mt19937_64 rng(1);
    std::vector<int64_t> id(kRows);
    std::vector<int32_t> qty(kRows);
    std::vector<std::string> category(kRows);
    for (int64_t i = 0; i < kRows; ++i) {
      id[i] = 1'000'000 + i;
      qty[i] = static_cast<int32_t>(rng() % 100);
      category[i] = kCategories[rng() % 8];
    }
    b.id = FixedWidth(Int64(), id);
    b.qty = FixedWidth(Int32(), qty);
    b.category = Strings(category);
    return b;
  }();
  return batch;
}

// Evaluates `where` over the batch; state.range(0) is unused.
void EvaluateWhere(benchmark::State& state, const char* where) {
  const Batch& b = TheBatch();
  auto filter = expr::BindFilter(where, b.schema);
  if (!filter.ok()) {
    state.SkipWithError(filter.status().ToString().c_str());
    return;
  }
  std::vector<const Array*> columns;
  for (const expr::ColumnRef& c : filter->columns) {
    columns.push_back(c.path == "id"    ? b.id.get()
                      : c.path == "qty" ? b.qty.get()
                                        : b.category.get());
  }
  for (auto _ : state) {
    auto mask = expr::EvaluateFilter(*filter, columns, kRows);
    if (!mask.ok()) state.SkipWithError("EvaluateFilter");
    benchmark::DoNotOptimize(mask->data());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

void BM_FilterInt64Between(benchmark::State& s) {
  EvaluateWhere(s, "id BETWEEN 1010000 AND 1020000");
}
void BM_FilterInt32Greater(benchmark::State& s) { EvaluateWhere(s, "qty > 95"); }
void BM_FilterStringEquals(benchmark::State& s) { EvaluateWhere(s, "category = 'apac'"); }
void BM_FilterStringIn(benchmark::State& s) {
  EvaluateWhere(s, "category IN ('apac', 'eu', 'mea')");
}
void BM_FilterOrAcrossColumns(benchmark::State& s) {
  EvaluateWhere(s, "id BETWEEN 1010000 AND 1010999 OR qty > 95");
}
void BM_FilterAndAcrossColumns(benchmark::State& s) {
  EvaluateWhere(s, "qty > 50 AND category = 'apac'");
}
BENCHMARK(BM_FilterInt64Between);
BENCHMARK(BM_FilterInt32Greater);
BENCHMARK(BM_FilterStringEquals);
BENCHMARK(BM_FilterStringIn);
BENCHMARK(BM_FilterOrAcrossColumns);
BENCHMARK(BM_FilterAndAcrossColumns);

// A mask selecting each row with probability 1/state.range(0) (1: every row).
std::vector<uint8_t> RandomMask(int64_t one_in, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> mask(kRows);
  for (auto& m : mask) m = rng() % one_in == 0 ? 1 : 0;
  return mask;
}

void BM_SelectionFromMask(benchmark::State& state) {
  const std::vector<uint8_t> mask = RandomMask(state.range(0), 2);
  for (auto _ : state) {
    prune::RowSelection s = prune::RowSelection::FromMask(mask);
    benchmark::DoNotOptimize(s.ranges().data());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_SelectionFromMask)->Arg(1)->Arg(2)->Arg(25)->Arg(1000);

// Two selections over a million rows: page-sized ranges (as a page index gives) against
// state.range(0) scattered short ranges (as a filter gives).
void BM_SelectionIntersect(benchmark::State& state) {
  constexpr int64_t kTotal = 1'000'000;
  std::vector<prune::RowRange> pages;
  for (int64_t b = 0; b < kTotal; b += 40'000) pages.push_back({b, b + 20'000});
  std::mt19937_64 rng(3);
  std::vector<prune::RowRange> scattered;
  for (int64_t i = 0; i < state.range(0); ++i) {
    const int64_t begin = static_cast<int64_t>(rng() % kTotal);
    scattered.push_back({begin, begin + 1 + static_cast<int64_t>(rng() % 50)});
  }
  const prune::RowSelection a = prune::RowSelection::FromRanges(pages);
  const prune::RowSelection b = prune::RowSelection::FromRanges(scattered);
  for (auto _ : state) {
    prune::RowSelection c = a.Intersect(b);
    benchmark::DoNotOptimize(c.ranges().data());
  }
  state.SetItemsProcessed(state.iterations() * (static_cast<int64_t>(a.ranges().size()) +
                                                static_cast<int64_t>(b.ranges().size())));
}
BENCHMARK(BM_SelectionIntersect)->Arg(100)->Arg(10'000)->Arg(100'000);

}  // namespace
}  // namespace pqsift

BENCHMARK_MAIN();
