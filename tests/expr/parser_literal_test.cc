// Number literals at the edge of int128 (found by the filter fuzzer: a 39th digit overflowed
// int128 before the length check, undefined behaviour).
#include <gtest/gtest.h>

#include <string>

#include "expr/parser.h"

namespace pqsift::expr {
namespace {

const Literal& LeftLiteral(const AstNode& comparison) { return comparison.children.at(0)->literal; }

TEST(ParserLiterals, ThirtyEightDigitsStayExactThirtyNineBecomeAFloat) {
  const std::string nines(38, '9');
  auto exact = Parse(nines + " > 1");
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  EXPECT_EQ(LeftLiteral(**exact).kind, Literal::Kind::kInteger);

  for (const std::string& text : {nines + "9", std::string(37, '6') + "00", nines + ".5"}) {
    auto wide = Parse(text + " > 1");
    ASSERT_TRUE(wide.ok()) << text << ": " << wide.status().ToString();
    EXPECT_EQ(LeftLiteral(**wide).kind, Literal::Kind::kFloat) << text;
    EXPECT_DOUBLE_EQ(LeftLiteral(**wide).f, std::stod(text)) << text;
  }
}

}  // namespace
}  // namespace pqsift::expr
