// Value: the order (NaN last, -0 == +0, unsigned bytes) and the decimal-to-float conversion
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

int128 Parse(const std::string& text) {
  int128 v = 0;
  for (char c : text) {
    if (c != '-') v = v * 10 + (c - '0');
  }
  return text[0] == '-' ? -v : v;
}

// Values DuckDB 1.x converts to something other than the nearest float or double (asked of
// DuckDB itself: `SELECT x::DECIMAL(p, s)::FLOAT`), and that the differential tests therefore
// need converted exactly so.
TEST(ExprValueTest, DecimalToRealMatchesDuckDBToTheBit) {
  struct Case {
    const char* unscaled;
    int32_t scale;
    bool wide;    // precision over 18
    bool single;  // to FLOAT, else to DOUBLE
    double duckdb;
  };
  const Case cases[] = {
      {"-26504182529615547633726251775", 12, true, false, -26504182529615544},
      {"-9734701258075457830907337433", 12, true, false, -9734701258075456.0},
      {"-556851557052932535534708555", 10, true, false, -55685155705293248},
      {"-698504204870972050", 30, true, false, -6.9850420487097199e-13},
      {"732834470268694812035015312405", 30, true, false, 0.73283447026869475},
      {"3323014132255464", 15, false, true, 3.3230142593383789},
      {"-26337040949257", 15, false, true, -0.026337042450904846},
      {"324017675", 12, true, true, 0.00032401765929535031},
      {"-7169755958", 10, true, true, -0.71697562932968140},
      {"245338730187499462", 10, true, true, 24533872.000000000},
      {"28393054", 6, false, true, 28.393054962158203},
      {"-558032", 30, true, true, -5.5803197061764551e-25},
      // The case an earlier differential run found: a DECIMAL(38,10) near 1e28.
      {"26191011636205110000000000000000000000", 10, true, false, 2.619101163620511e+27},
  };
  for (const Case& c : cases) {
    int128 v = Parse(c.unscaled);
    double got = c.single ? DecimalToReal<float>(v, c.scale, c.wide)
                          : DecimalToReal<double>(v, c.scale, c.wide);
    EXPECT_EQ(got, c.duckdb) << c.unscaled << "e-" << c.scale << (c.single ? " float" : " double");
  }
}

// Where the unscaled value is an exact double (|v| <= 2^53) and 10^scale too, DuckDB divides
// once, which rounds correctly: the result is strtod's.
TEST(ExprValueTest, DecimalToDoubleOfExactIntegersIsCorrectlyRounded) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    int128 v = static_cast<int128>(rng() % (uint64_t{1} << 53));
    if (rng() % 2) v = -v;
    int scale = static_cast<int>(rng() % 23);
    std::string text = Text(v) + "e-" + std::to_string(scale);
    double expected = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(DecimalToReal<double>(v, scale, false), expected) << text;
    ASSERT_EQ(DecimalToReal<double>(v, scale, true), expected) << text;
  }
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
