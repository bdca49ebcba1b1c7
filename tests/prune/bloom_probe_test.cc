// The stored forms a literal is probed as (prune/bloom_probe.h): the physical width, both float
// zeros, big-endian decimals, and no answer wherever a matching value could be stored otherwise.
#include "prune/bloom_probe.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "format/bloom_filter.h"

namespace pqsift::prune {
namespace {

using expr::Value;

ColumnDescriptor Column(PhysicalType physical, int32_t type_length = 0) {
  ColumnDescriptor c;
  c.physical_type = physical;
  c.type_length = type_length;
  return c;
}

std::vector<uint64_t> Hashes(const Value& v, PhysicalType physical, const DataType& type,
                             int32_t type_length = 0) {
  auto out = BloomHashesOf(v, Column(physical, type_length), type);
  EXPECT_TRUE(out.has_value());
  return out.value_or(std::vector<uint64_t>{});
}

bool NoAnswer(const Value& v, PhysicalType physical, const DataType& type, int32_t length = 0) {
  return !BloomHashesOf(v, Column(physical, length), type).has_value();
}

TEST(BloomProbeTest, IntegersInThePhysicalWidth) {
  using format::BloomFilterHashOf;
  EXPECT_EQ(Hashes(Value::Int(-7), PhysicalType::kInt32, *Int32()),
            std::vector<uint64_t>{BloomFilterHashOf(int32_t{-7})});
  EXPECT_EQ(Hashes(Value::Int(-7), PhysicalType::kInt64, *Int64()),
            std::vector<uint64_t>{BloomFilterHashOf(int64_t{-7})});
  // UINT_32 above 2^31 is stored as the same 32 bits.
  EXPECT_EQ(Hashes(Value::Int(4'000'000'000), PhysicalType::kInt32, *UInt32()),
            std::vector<uint64_t>{BloomFilterHashOf(static_cast<int32_t>(4'000'000'000u))});
  EXPECT_TRUE(NoAnswer(Value::Int(int64_t{1} << 31), PhysicalType::kInt32, *Int32()));
  EXPECT_TRUE(NoAnswer(Value::Int(-1), PhysicalType::kInt32, *UInt32()));
  EXPECT_TRUE(NoAnswer(Value::Int(expr::int128{1} << 64), PhysicalType::kInt64, *UInt64()));
  // INT(8)/INT(16) columns read a stored int32 by wrapping: many stored values read as one.
  EXPECT_TRUE(NoAnswer(Value::Int(5), PhysicalType::kInt32, *Int8()));
  EXPECT_TRUE(NoAnswer(Value::Int(5), PhysicalType::kInt32, *UInt16()));
  EXPECT_TRUE(NoAnswer(Value::Int(5), PhysicalType::kInt96, *Timestamp(TimeUnit::kMicros, "")));
  EXPECT_TRUE(NoAnswer(Value::Bool(true), PhysicalType::kBoolean, *Boolean()));
}

TEST(BloomProbeTest, FloatsExactlyAndZeroInBothSigns) {
  using format::BloomFilterHashOf;
  EXPECT_EQ(Hashes(Value::Float(1.5), PhysicalType::kFloat, *Float32()),
            std::vector<uint64_t>{BloomFilterHashOf(1.5f)});
  EXPECT_EQ(Hashes(Value::Float(-0.0), PhysicalType::kDouble, *Float64()),
            (std::vector<uint64_t>{BloomFilterHashOf(0.0), BloomFilterHashOf(-0.0)}));
  EXPECT_EQ(Hashes(Value::Float(0.0), PhysicalType::kFloat, *Float32()),
            (std::vector<uint64_t>{BloomFilterHashOf(0.0f), BloomFilterHashOf(-0.0f)}));
  EXPECT_TRUE(NoAnswer(Value::Float(std::nan("")), PhysicalType::kDouble, *Float64()));
  EXPECT_TRUE(NoAnswer(Value::Float(0.1), PhysicalType::kFloat, *Float32()));  // not a float
  EXPECT_TRUE(NoAnswer(Value::Float(1e300), PhysicalType::kFloat, *Float32()));
  EXPECT_EQ(Hashes(Value::Float(-INFINITY), PhysicalType::kFloat, *Float32()),
            std::vector<uint64_t>{BloomFilterHashOf(-std::numeric_limits<float>::infinity())});
  EXPECT_TRUE(NoAnswer(Value::Float(1.5), PhysicalType::kFixedLenByteArray, *Float16(), 2));
}

TEST(BloomProbeTest, BytesAndDecimals) {
  const std::string abc = "abc";
  const uint64_t abc_hash =
      format::BloomFilterHash({reinterpret_cast<const uint8_t*>(abc.data()), abc.size()});
  EXPECT_EQ(Hashes(Value::Bytes(abc), PhysicalType::kByteArray, *LargeUtf8()),
            std::vector<uint64_t>{abc_hash});
  EXPECT_EQ(Hashes(Value::Bytes(abc), PhysicalType::kFixedLenByteArray, *FixedSizeBinary(3), 3),
            std::vector<uint64_t>{abc_hash});
  EXPECT_TRUE(
      NoAnswer(Value::Bytes("ab"), PhysicalType::kFixedLenByteArray, *FixedSizeBinary(3), 3));
  // DECIMAL on FIXED_LEN_BYTE_ARRAY(3): -2 is FF FF FE; 2^23 does not fit.
  const uint8_t minus_two[3] = {0xFF, 0xFF, 0xFE};
  EXPECT_EQ(Hashes(Value::Int(-2), PhysicalType::kFixedLenByteArray, *Decimal128(6, 2), 3),
            std::vector<uint64_t>{format::BloomFilterHash(minus_two)});
  EXPECT_TRUE(
      NoAnswer(Value::Int(1 << 23), PhysicalType::kFixedLenByteArray, *Decimal128(6, 2), 3));
  EXPECT_EQ(
      Hashes(Value::Int(-(1 << 23)), PhysicalType::kFixedLenByteArray, *Decimal128(6, 2), 3).size(),
      1u);
  // DECIMAL on BYTE_ARRAY may be stored in any length.
  EXPECT_TRUE(NoAnswer(Value::Int(5), PhysicalType::kByteArray, *Decimal128(6, 2)));
  EXPECT_EQ(Hashes(Value::Int(5), PhysicalType::kInt64, *Decimal128(18, 2)),
            std::vector<uint64_t>{format::BloomFilterHashOf(int64_t{5})});
}

}  // namespace
}  // namespace pqsift::prune
