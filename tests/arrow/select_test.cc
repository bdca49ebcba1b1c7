// SelectRanges: every type, every subset of rows, sliced inputs; the result is a valid array
// whose element k equals the k-th selected element of the input.
#include "arrow/select.h"

#include <gtest/gtest.h>

#include <vector>

#include "test_arrays.h"

namespace pqsift {
namespace {

// The subset of [0, n) given by the bits of `mask`, as ranges.
std::vector<ElementRange> MaskRanges(unsigned mask, int64_t n) {
  std::vector<ElementRange> out;
  for (int64_t i = 0; i < n; ++i) {
    if (((mask >> i) & 1) == 0) continue;
    if (!out.empty() && out.back().end == i) {
      ++out.back().end;
    } else {
      out.push_back({i, i + 1});
    }
  }
  return out;
}

void ExpectSelected(const Array& input, const std::vector<ElementRange>& ranges,
                    const std::string& what) {
  std::shared_ptr<Array> out = SelectRanges(input, ranges);
  ASSERT_TRUE(ValidateArray(*out).ok()) << what << ": " << ValidateArray(*out).ToString();
  int64_t k = 0;
  for (const ElementRange& r : ranges) {
    for (int64_t i = r.begin; i < r.end; ++i, ++k) {
      auto got = Slice(*out, k, 1);
      auto want = Slice(input, i, 1);
      ASSERT_TRUE(got.ok() && want.ok());
      EXPECT_TRUE(ArrayEquals(**got, **want)) << what << ", element " << i;
    }
  }
  EXPECT_EQ(out->length, k) << what;
}

TEST(SelectRangesTest, EveryTypeEverySubset) {
  for (const auto& column : testing::EveryTypeColumns()) {
    const Array& full = *column.array;
    for (unsigned mask = 0; mask < (1u << full.length); ++mask) {
      ExpectSelected(full, MaskRanges(mask, full.length),
                     column.name + " mask " + std::to_string(mask));
    }
  }
}

// Gathering from several arrays equals selecting from their concatenation: every type, every
// split point, every subset.
TEST(SelectRangesTest, SeveralSources) {
  for (const auto& column : testing::EveryTypeColumns()) {
    const Array& full = *column.array;
    const int64_t n = full.length;
    for (int64_t split = 1; split < n; ++split) {
      auto head = Slice(full, 0, split);
      auto tail = Slice(full, split, n - split);
      ASSERT_TRUE(head.ok() && tail.ok());
      for (unsigned mask = 0; mask < (1u << n); ++mask) {
        std::vector<ElementRange> head_ranges = MaskRanges(mask & ((1u << split) - 1), split);
        std::vector<ElementRange> tail_ranges = MaskRanges(mask >> split, n - split);
        const RangesOf sources[] = {{head->get(), head_ranges}, {tail->get(), tail_ranges}};
        std::shared_ptr<Array> got = SelectRanges(sources);
        std::shared_ptr<Array> want = SelectRanges(full, MaskRanges(mask, n));
        std::string what =
            column.name + " split " + std::to_string(split) + " mask " + std::to_string(mask);
        ASSERT_TRUE(ValidateArray(*got).ok()) << what << ": " << ValidateArray(*got).ToString();
        EXPECT_TRUE(ArrayEquals(*got, *want)) << what;
      }
    }
  }
}

TEST(SelectRangesTest, SlicedInputs) {
  // Offsets in the input (and, for structs, in the children) must be honoured.
  for (const auto& column : testing::EveryTypeColumns()) {
    auto sliced = Slice(*column.array, 1, column.array->length - 1);
    ASSERT_TRUE(sliced.ok());
    for (unsigned mask = 0; mask < (1u << (*sliced)->length); ++mask) {
      ExpectSelected(**sliced, MaskRanges(mask, (*sliced)->length),
                     column.name + " sliced, mask " + std::to_string(mask));
    }
  }
}

TEST(SelectRangesTest, LongScatteredSelection) {
  testing::Opt<int64_t> none;
  std::vector<testing::Opt<int64_t>> values;
  std::vector<testing::Opt<std::string>> strings;
  for (int64_t i = 0; i < 10000; ++i) {
    values.push_back(i % 7 == 0 ? none : testing::Opt<int64_t>(i));
    strings.push_back(i % 5 == 0 ? testing::Opt<std::string>() : std::to_string(i * i));
  }
  std::vector<ElementRange> ranges;
  for (int64_t i = 3; i < 10000; i += 3 + i % 11)
    ranges.push_back({i, std::min<int64_t>(i + 1 + i % 3, 10000)});
  ExpectSelected(*testing::MakeFixed<int64_t>(Int64(), values), ranges, "int64");
  ExpectSelected(*testing::MakeStrings(strings), ranges, "strings");
}

}  // namespace
}  // namespace pqsift
