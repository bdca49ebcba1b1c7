// Value: the order (NaN last, -0 == +0, unsigned bytes) and the decimal-to-double conversion
// that literals and evaluated columns must share.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "expr/value.h"

namespace pqsift::expr {
namespace {

std::string Text(int128 v) {
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  return (negative ? "-" : "") + digits;
}

TEST(ExprValueTest, DecimalToDoubleIsCorrectlyRounded) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    int digits = 1 + static_cast<int>(rng() % 38);
    int128 v = 0;
    for (int d = 0; d < digits; ++d) v = v * 10 + static_cast<int>(rng() % 10);
    if (rng() % 2) v = -v;
    int scale = static_cast<int>(rng() % 39);
    std::string text = Text(v) + "e-" + std::to_string(scale);
    double expected = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(DecimalToDouble(v, scale), expected) << text;
  }
  // The case the differential test found: a DECIMAL(38,10) near 1e28.
  int128 big = 0;
  for (char c : std::string("26191011636205110000000000000000000000")) big = big * 10 + (c - '0');
  EXPECT_EQ(DecimalToDouble(big, 10),
            std::strtod("26191011636205110000000000000000000000e-10", nullptr));
}

TEST(ExprValueTest, FloatOrderPutsNaNLastAndZerosTogether) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Compare(Value::Float(nan), Value::Float(nan)), 0);
  EXPECT_GT(Compare(Value::Float(nan), Value::Float(INFINITY)), 0);
  EXPECT_EQ(Compare(Value::Float(-0.0), Value::Float(0.0)), 0);
  EXPECT_LT(Compare(Value::Bytes("a"), Value::Bytes("\xff")), 0);  // unsigned bytes
}

}  // namespace
}  // namespace pqsift::expr
