// The error model: Status, Result and the propagation macros.
#include "pqsift/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace pqsift {
namespace {

TEST(StatusTest, DefaultIsOkWithEmptyMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_EQ(s, Status::OK());
}

TEST(StatusTest, EachFactoryGivesItsCodeAndMessage) {
  struct Case {
    Status status;
    StatusCode code;
    std::string name;
  };
  std::vector<Case> cases = {
      {Status::InvalidArgument("m"), StatusCode::kInvalidArgument, "Invalid argument"},
      {Status::Corruption("m"), StatusCode::kCorruption, "Corruption"},
      {Status::NotSupported("m"), StatusCode::kNotSupported, "Not supported"},
      {Status::IOError("m"), StatusCode::kIOError, "IO error"},
      {Status::OutOfRange("m"), StatusCode::kOutOfRange, "Out of range"},
      {Status::ResourceExhausted("m"), StatusCode::kResourceExhausted, "Resource exhausted"},
      {Status::Internal("m"), StatusCode::kInternal, "Internal error"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_FALSE(c.status.ok());
    EXPECT_EQ(c.status.code(), c.code);
    EXPECT_EQ(c.status.message(), "m");
    EXPECT_EQ(StatusCodeName(c.code), c.name);
    EXPECT_EQ(c.status.ToString(), c.name + ": m");
  }
  EXPECT_EQ(StatusCodeName(StatusCode::kOk), "OK");
  EXPECT_EQ(StatusCodeName(static_cast<StatusCode>(99)), "Unknown");
}

TEST(StatusTest, AnErrorWithAnEmptyMessageIsStillAnError) {
  Status s = Status::Corruption("");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.ToString(), "Corruption: ");
  EXPECT_NE(s, Status::OK());
}

TEST(StatusTest, EqualityComparesCodeAndMessage) {
  EXPECT_EQ(Status::Corruption("a"), Status::Corruption("a"));
  EXPECT_NE(Status::Corruption("a"), Status::Corruption("b"));
  EXPECT_NE(Status::Corruption("a"), Status::IOError("a"));
  EXPECT_NE(Status::Corruption("a"), Status::OK());
}

TEST(StatusTest, CopiesShareTheMessageAndStayEqual) {
  Status a = Status::IOError("disk on fire");
  Status b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(&a.message(), &b.message());  // shared, not copied
  Status c = std::move(b);
  EXPECT_EQ(c, a);
}

TEST(StatusTest, WithContextPrefixesAndKeepsTheCode) {
  Status s = Status::Corruption("footer length 912 exceeds the file size 200");
  Status w = s.WithContext("data.parquet");
  EXPECT_EQ(w.code(), StatusCode::kCorruption);
  EXPECT_EQ(w.message(), "data.parquet: footer length 912 exceeds the file size 200");
  // The original is untouched.
  EXPECT_EQ(s.message(), "footer length 912 exceeds the file size 200");
  // Contexts nest outermost first.
  EXPECT_EQ(w.WithContext("query 1").message(),
            "query 1: data.parquet: footer length 912 exceeds the file size 200");
}

TEST(StatusTest, WithContextOnOkStaysOk) {
  Status s = Status::OK().WithContext("file");
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.message(), "");
}

TEST(ResultTest, HoldsAValue) {
  Result<int> r = 42;
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.status().ok());
  EXPECT_EQ(*r, 42);
  EXPECT_EQ(r.value(), 42);
  *r = 7;
  EXPECT_EQ(r.value(), 7);
}

TEST(ResultTest, HoldsAnError) {
  Result<int> r = Status::OutOfRange("past the end");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(r.status().message(), "past the end");
}

TEST(ResultTest, MovesOutMoveOnlyValues) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(5);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(**r, 5);
  std::unique_ptr<int> p = std::move(r).value();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 5);
}

TEST(ResultTest, ArrowGivesMemberAccess) {
  Result<std::string> r = std::string("abc");
  EXPECT_EQ(r->size(), 3u);
  const Result<std::string>& cr = r;
  EXPECT_EQ(cr->front(), 'a');
}

#ifndef NDEBUG
TEST(ResultDeathTest, ConstructingFromOkStatusAsserts) {
  EXPECT_DEATH({ Result<int> r(Status::OK()); }, "OK Status");
}
#endif

// ---- the macros ----

Status FailIf(bool fail) { return fail ? Status::Corruption("failed") : Status::OK(); }

Status Chain(bool fail, int* reached) {
  PQSIFT_RETURN_IF_ERROR(FailIf(fail));
  *reached = 1;
  return Status::OK();
}

TEST(MacroTest, ReturnIfErrorReturnsTheErrorAndOtherwiseContinues) {
  int reached = 0;
  EXPECT_EQ(Chain(true, &reached), Status::Corruption("failed"));
  EXPECT_EQ(reached, 0);
  EXPECT_TRUE(Chain(false, &reached).ok());
  EXPECT_EQ(reached, 1);
}

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  PQSIFT_ASSIGN_OR_RETURN(int h, Half(x));
  PQSIFT_ASSIGN_OR_RETURN(int q, Half(h));  // two in one scope: distinct temporaries
  return q;
}

TEST(MacroTest, AssignOrReturnAssignsOrReturns) {
  Result<int> ok = Quarter(12);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 3);
  EXPECT_EQ(Quarter(6).status(), Status::InvalidArgument("odd 3"));
  EXPECT_EQ(Quarter(5).status(), Status::InvalidArgument("odd 5"));
}

Result<std::unique_ptr<int>> MakeBox(bool fail) {
  if (fail) return Status::IOError("no box");
  return std::make_unique<int>(9);
}

Status UseBox(bool fail, int* out) {
  PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<int> box, MakeBox(fail));
  *out = *box;
  return Status::OK();
}

TEST(MacroTest, AssignOrReturnMovesMoveOnlyValues) {
  int out = 0;
  EXPECT_TRUE(UseBox(false, &out).ok());
  EXPECT_EQ(out, 9);
  EXPECT_EQ(UseBox(true, &out).code(), StatusCode::kIOError);
}

}  // namespace
}  // namespace pqsift
