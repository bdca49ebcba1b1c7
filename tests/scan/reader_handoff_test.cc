// ReaderHandoff (scan/reader_handoff.h): readers handed from slice to slice, and WhenReady, which
// lets the executor submit a task only once its Takes would not wait.
#include "scan/reader_handoff.h"

#include <gtest/gtest.h>

#include <vector>

namespace pqsift::scan {
namespace {

TEST(ReaderHandoff, WhenReadyRunsOnceThePredecessorPut) {
  ReaderHandoff handoff;
  EXPECT_EQ(handoff.Register(0), -1);
  EXPECT_EQ(handoff.Register(1), 0);
  EXPECT_EQ(handoff.Register(2), 1);
  std::vector<int> ran;
  handoff.WhenReady(0, [&] { ran.push_back(0); });  // follows nothing: now
  EXPECT_EQ(ran, std::vector<int>{0});
  handoff.WhenReady(2, [&] { ran.push_back(2); });
  handoff.WhenReady(1, [&] { ran.push_back(1); });
  EXPECT_EQ(ran, std::vector<int>{0});
  handoff.Put(0, nullptr);  // slice 1 may take now; slice 2 still waits for slice 1
  EXPECT_EQ(ran, (std::vector<int>{0, 1}));
  EXPECT_EQ(handoff.Take(1), nullptr);
  handoff.Put(1, nullptr);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(handoff.Take(2), nullptr);  // does not wait
  handoff.Put(2, nullptr);
}

TEST(ReaderHandoff, WhenReadyFollowsSlicesThatLeftNothing) {
  // Slice 1 puts without taking (it used no reader): slice 2's Take goes on to slice 0, so it
  // is ready only once slice 0 put too, whichever comes first.
  ReaderHandoff handoff;
  handoff.Register(0);
  handoff.Register(1);
  handoff.Register(2);
  bool ready = false;
  handoff.WhenReady(2, [&] { ready = true; });
  handoff.Put(1, nullptr);
  EXPECT_FALSE(ready);
  handoff.Put(0, nullptr);
  EXPECT_TRUE(ready);
  EXPECT_EQ(handoff.Take(2), nullptr);
  handoff.Put(2, nullptr);
}

TEST(ReaderHandoff, ClearDropsWaitingCallbacks) {
  ReaderHandoff handoff;
  handoff.Register(0);
  handoff.Register(1);
  bool ran = false;
  handoff.WhenReady(1, [&] { ran = true; });
  handoff.Clear();
  handoff.Put(0, nullptr);
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace pqsift::scan
