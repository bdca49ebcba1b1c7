// SortRows and TakeRows over rows held in several chunks, against a plain model.
#include "arrow/sort.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "arrow/test_arrays.h"

namespace pqsift {
namespace {

using testing::kNull;
using testing::MakeFixed;
using testing::MakeStrings;

TEST(SortRows, TwoKeysAcrossChunksWithNullsAndDescending) {
  // key a (int32, ascending, nulls last), key b (string, descending, nulls first).
  SortKey a{{MakeFixed<int32_t>(Int32(), {2, kNull, 1}), MakeFixed<int32_t>(Int32(), {1, 2, 1})},
            false,
            false};
  SortKey b{{MakeStrings({"x", "y", "b"}), MakeStrings({kNull, "z", "c"})}, true, true};
  std::vector<RowRef> rows = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
  ASSERT_TRUE(SortRows({a, b}, rows).ok());
  // a=1: (0,2) b, (1,0) null, (1,2) c -> b descending, nulls first: (1,0), (1,2), (0,2)
  // a=2: (0,0) x, (1,1) z -> (1,1), (0,0); a=null: (0,1)
  std::vector<std::pair<uint32_t, int64_t>> got;
  for (const RowRef& r : rows) got.emplace_back(r.chunk, r.row);
  std::vector<std::pair<uint32_t, int64_t>> want = {{1, 0}, {1, 2}, {0, 2}, {1, 1}, {0, 0}, {0, 1}};
  EXPECT_EQ(got, want);
}

TEST(SortRows, FloatsPutNaNAboveNumbersAndKeepTiesInOrder) {
  const double nan = std::nan("");
  SortKey k{{MakeFixed<double>(Float64(), {nan, -0.0, 1.0, 0.0, -INFINITY})}, false, false};
  std::vector<RowRef> rows = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}};
  ASSERT_TRUE(SortRows({k}, rows).ok());
  std::vector<int64_t> order;
  for (const RowRef& r : rows) order.push_back(r.row);
  EXPECT_EQ(order, (std::vector<int64_t>{4, 1, 3, 2, 0}));  // -0 and +0 tie: input order
}

TEST(SortFirstRows, IsTheStableSortCutShortOnRandomKeysWithTiesAndNulls) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    // Two chunks of a key with few distinct values (many ties) and NULLs, and a second key.
    std::vector<SortKey> keys(2);
    std::vector<RowRef> rows;
    for (uint32_t chunk = 0; chunk < 2; ++chunk) {
      std::vector<std::optional<int32_t>> first, second;
      const int64_t n = random() % 40;
      for (int64_t r = 0; r < n; ++r) {
        first.push_back(random() % 5 == 0 ? std::nullopt : std::optional<int32_t>(random() % 4));
        second.emplace_back(static_cast<int32_t>(random() % 3));
        rows.push_back({chunk, r});
      }
      keys[0].chunks.push_back(MakeFixed<int32_t>(Int32(), first));
      keys[1].chunks.push_back(MakeFixed<int32_t>(Int32(), second));
    }
    keys[0].descending = trial % 2 == 0;
    keys[0].nulls_first = trial % 3 == 0;
    keys[1].descending = trial % 5 == 0;
    const size_t n = random() % 50;
    std::vector<RowRef> all = rows, first = rows;
    ASSERT_TRUE(SortRows(keys, all).ok());
    ASSERT_TRUE(SortFirstRows(keys, first, n).ok());
    ASSERT_EQ(first.size(), std::min(n, all.size()));
    for (size_t i = 0; i < first.size(); ++i) {
      EXPECT_EQ(first[i].chunk, all[i].chunk) << "trial " << trial << " row " << i;
      EXPECT_EQ(first[i].row, all[i].row) << "trial " << trial << " row " << i;
    }
  }
}

TEST(TakeRows, EveryFlatTypeAcrossChunks) {
  for (const auto& column : testing::EveryTypeColumns()) {
    const DataType& type = *column.array->type;
    if (type.id == TypeId::kLargeList || type.id == TypeId::kStruct || type.id == TypeId::kMap ||
        type.id == TypeId::kNull) {
      continue;
    }
    // Two chunks: rows 0..1 and 2..3 of the column; take them as 3, 0, 1, 2.
    auto first = *Slice(*column.array, 0, 2);
    auto second = *Slice(*column.array, 2, 2);
    auto taken = TakeRows({first, second}, {{1, 1}, {0, 0}, {0, 1}, {1, 0}});
    ASSERT_TRUE(taken.ok()) << column.name << ": " << taken.status().ToString();
    EXPECT_TRUE(ValidateArray(**taken).ok()) << column.name;
    for (auto [at, from] : {std::pair{0, 3}, {1, 0}, {2, 1}, {3, 2}}) {
      EXPECT_TRUE(ArrayEquals(**Slice(**taken, at, 1), **Slice(*column.array, from, 1)))
          << column.name << " row " << at;
    }
  }
}

}  // namespace
}  // namespace pqsift
