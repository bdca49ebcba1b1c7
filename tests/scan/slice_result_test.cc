// SliceResult keeps one error of the parts that fail, the same whichever part finishes first.
#include "scan/slice.h"

#include <gtest/gtest.h>

namespace pqsift::scan {
namespace {

TEST(SliceResult, TheLowestRankedErrorWinsWhateverTheOrder) {
  for (bool later_first : {false, true}) {
    SliceResult result;
    result.pending = 4;
    Status first = Status::Corruption("column 'a'");
    Status second = Status::Corruption("column 'b'");
    if (later_first) {
      result.Finish(second, SliceResult::OutputRank(1));
      result.Finish(Status::Internal("cancelled"), SliceResult::kCancelledRank);
      result.Finish(first, SliceResult::OutputRank(0));
    } else {
      result.Finish(first, SliceResult::OutputRank(0));
      result.Finish(second, SliceResult::OutputRank(1));
      result.Finish(Status::Internal("cancelled"), SliceResult::kCancelledRank);
    }
    result.Finish(Status::OK(), SliceResult::kFilterRank);
    EXPECT_EQ(result.pending, 0);
    EXPECT_EQ(result.error.message(), "column 'a'") << later_first;
  }
  SliceResult filtered;
  filtered.pending = 2;
  filtered.Finish(Status::Corruption("column 'b'"), SliceResult::OutputRank(1));
  filtered.Finish(Status::Corruption("filter"), SliceResult::kFilterRank);
  EXPECT_EQ(filtered.error.message(), "filter");
}

}  // namespace
}  // namespace pqsift::scan
