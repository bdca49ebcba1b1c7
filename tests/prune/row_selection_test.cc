// RowSelection algebra against a bitmap model: random ranges and masks, every operation
// checked row by row, plus the normal form (sorted, disjoint, non-adjacent, no empty range).
#include "prune/row_selection.h"

#include <gtest/gtest.h>

#include <random>

namespace pqsift::prune {
namespace {

using Bitmap = std::vector<uint8_t>;

Bitmap ToBitmap(const RowSelection& s, int64_t n) {
  Bitmap b(static_cast<size_t>(n), 0);
  for (const RowRange& r : s.ranges()) {
    for (int64_t i = r.begin; i < r.end; ++i) {
      if (i >= 0 && i < n) b[i] = 1;
    }
  }
  return b;
}

void ExpectNormalForm(const RowSelection& s) {
  const std::vector<RowRange>& r = s.ranges();
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_LT(r[i].begin, r[i].end) << "empty range at " << i;
    if (i > 0) {
      EXPECT_LT(r[i - 1].end, r[i].begin) << "ranges " << i - 1 << " and " << i;
    }
  }
}

TEST(RowSelection, BasicForms) {
  EXPECT_TRUE(RowSelection().empty());
  EXPECT_EQ(RowSelection().row_count(), 0);
  EXPECT_TRUE(RowSelection::All(0).empty());
  RowSelection all = RowSelection::All(10);
  EXPECT_TRUE(all.SelectsAll(10));
  EXPECT_FALSE(all.SelectsAll(11));
  EXPECT_EQ(all.row_count(), 10);
  EXPECT_TRUE(RowSelection().SelectsAll(0));

  RowSelection merged = RowSelection::FromRanges({{5, 8}, {0, 2}, {2, 3}, {7, 9}, {4, 4}});
  EXPECT_EQ(merged.ranges(), (std::vector<RowRange>{{0, 3}, {5, 9}}));
  EXPECT_EQ(merged.row_count(), 7);

  uint8_t mask[] = {0, 1, 1, 0, 0, 7, 0, 1};
  RowSelection m = RowSelection::FromMask(mask, 100);
  EXPECT_EQ(m.ranges(), (std::vector<RowRange>{{101, 103}, {105, 106}, {107, 108}}));
}

TEST(RowSelection, IntersectAndUnion) {
  RowSelection a = RowSelection::FromRanges({{0, 10}, {20, 30}});
  RowSelection b = RowSelection::FromRanges({{5, 25}, {30, 40}});
  EXPECT_EQ(a.Intersect(b).ranges(), (std::vector<RowRange>{{5, 10}, {20, 25}}));
  EXPECT_EQ(a.Union(b).ranges(), (std::vector<RowRange>{{0, 40}}));
  EXPECT_TRUE(a.Intersect(RowSelection()).empty());
  EXPECT_EQ(a.Union(RowSelection()), a);
}

TEST(RowSelection, WithGapsFilledSelectsShortGapsOnly) {
  RowSelection s = RowSelection::FromRanges({{0, 2}, {4, 5}, {9, 10}, {20, 21}});
  EXPECT_EQ(s.WithGapsFilled(0), s);
  EXPECT_EQ(s.WithGapsFilled(2).ranges(), (std::vector<RowRange>{{0, 5}, {9, 10}, {20, 21}}));
  EXPECT_EQ(s.WithGapsFilled(4).ranges(), (std::vector<RowRange>{{0, 10}, {20, 21}}));
  EXPECT_EQ(s.WithGapsFilled(10).ranges(), (std::vector<RowRange>{{0, 21}}));
  EXPECT_TRUE(RowSelection().WithGapsFilled(5).empty());
}

// AppendMask against a byte-by-byte model: masks of every length around the 64-byte blocks it
// reads as words, nonzero bytes other than 1, densities from none to all, runs across block
// edges, appended in pieces after a range that ends where the piece begins (merged) or not.
TEST(RowSelection, AppendMaskMatchesByteByByteModel) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 3000; ++round) {
    const auto n = static_cast<size_t>(rng() % 300);
    const int density = static_cast<int>(rng() % 9);  // in eighths
    const bool runs = rng() % 2 == 0;                 // long runs, or bytes at random
    Bitmap mask(n);
    uint8_t value = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!runs || rng() % 40 == 0) value = static_cast<int>(rng() % 8) < density ? 1 : 0;
      mask[i] = value != 0 ? static_cast<uint8_t>(1 + rng() % 255) : 0;
    }
    const auto first_row = static_cast<int64_t>(rng() % 1000);
    std::vector<RowRange> out;
    const bool touching = rng() % 2 == 0;
    out.push_back({first_row - 5, touching ? first_row : first_row - 1});
    std::vector<RowRange> expected = out;
    for (size_t i = 0; i < n; ++i) {
      if (mask[i] == 0) continue;
      const int64_t row = first_row + static_cast<int64_t>(i);
      if (expected.back().end == row) {
        expected.back().end = row + 1;
      } else {
        expected.push_back({row, row + 1});
      }
    }
    RowSelection::AppendMask(mask, first_row, &out);
    ASSERT_EQ(out.size(), expected.size()) << "round " << round << ", " << n << " bytes";
    for (size_t k = 0; k < out.size(); ++k) {
      ASSERT_EQ(out[k].begin, expected[k].begin) << "round " << round << ", range " << k;
      ASSERT_EQ(out[k].end, expected[k].end) << "round " << round << ", range " << k;
    }
  }
}

TEST(RowSelection, AlgebraMatchesBitmapModel) {
  std::mt19937_64 rng(7);
  auto random_int = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iteration = 0; iteration < 3000; ++iteration) {
    int64_t n = random_int(0, 80);
    auto random_selection = [&]() {
      if (random_int(0, 1) == 0) {
        std::vector<RowRange> ranges;
        int64_t count = random_int(0, 8);
        for (int64_t i = 0; i < count; ++i) {
          int64_t begin = random_int(0, n);
          ranges.push_back({begin, std::min(n, begin + random_int(-2, 15))});
        }
        return RowSelection::FromRanges(ranges);
      }
      Bitmap mask(static_cast<size_t>(n));
      int64_t density = random_int(0, 4);
      for (uint8_t& bit : mask) bit = random_int(0, 3) < density ? 1 : 0;
      return RowSelection::FromMask(mask);
    };
    RowSelection a = random_selection();
    RowSelection b = random_selection();
    Bitmap ba = ToBitmap(a, n);
    Bitmap bb = ToBitmap(b, n);
    ExpectNormalForm(a);
    RowSelection i = a.Intersect(b);
    RowSelection u = a.Union(b);
    ExpectNormalForm(i);
    ExpectNormalForm(u);
    Bitmap bi = ToBitmap(i, n);
    Bitmap bu = ToBitmap(u, n);
    int64_t count_a = 0;
    int64_t count_i = 0;
    int64_t count_u = 0;
    for (int64_t r = 0; r < n; ++r) {
      ASSERT_EQ(bi[r], ba[r] & bb[r]) << "intersect, row " << r;
      ASSERT_EQ(bu[r], ba[r] | bb[r]) << "union, row " << r;
      count_a += ba[r];
      count_i += bi[r];
      count_u += bu[r];
    }
    EXPECT_EQ(a.row_count(), count_a);
    EXPECT_EQ(i.row_count(), count_i);
    EXPECT_EQ(u.row_count(), count_u);
    EXPECT_EQ(a.SelectsAll(n), count_a == n);  // [0, 0) is the empty selection
    // Round trip through a mask gives the same normal form.
    EXPECT_EQ(RowSelection::FromMask(ba), a);
    // Algebraic laws.
    EXPECT_EQ(b.Intersect(a), i);
    EXPECT_EQ(b.Union(a), u);
    EXPECT_EQ(a.Intersect(a), a);
    EXPECT_EQ(a.Union(i), a);
  }
}

}  // namespace
}  // namespace pqsift::prune

namespace pqsift::prune {
namespace {

TEST(RowSelectionDifference, RemovesTheOtherRows) {
  RowSelection a = RowSelection::FromRanges({{0, 10}, {20, 30}, {40, 50}});
  RowSelection b = RowSelection::FromRanges({{5, 25}, {40, 50}, {60, 70}});
  EXPECT_EQ(a.Difference(b), RowSelection::FromRanges({{0, 5}, {25, 30}}));
  EXPECT_EQ(b.Difference(a), RowSelection::FromRanges({{10, 20}, {60, 70}}));
  EXPECT_EQ(a.Difference(RowSelection()), a);
  EXPECT_TRUE(a.Difference(a).empty());
  // A range cut in three by two holes.
  EXPECT_EQ(RowSelection::All(10).Difference(RowSelection::FromRanges({{2, 3}, {5, 7}})),
            RowSelection::FromRanges({{0, 2}, {3, 5}, {7, 10}}));
}

TEST(RowSelectionText, InclusiveRangesCut) {
  EXPECT_EQ(RowSelection::FromRanges({{120000, 125000}, {880000, 885000}}).ToString(),
            "rows 120000-124999, 880000-884999");
  EXPECT_EQ(RowSelection::FromRanges({{0, 1}, {2, 3}, {4, 5}}).ToString(2),
            "rows 0-0, 2-2 and 1 more");
}

}  // namespace
}  // namespace pqsift::prune
