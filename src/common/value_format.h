// Text forms of Parquet values, shared by `inspect` (statistics) and the scan's text outputs,
// so a date or a decimal looks the same everywhere. Pure functions; no Parquet structures.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "pqsift/metadata.h"

namespace pqsift {

// Days since 1970-01-01 as YYYY-MM-DD (proleptic Gregorian; years beyond 9999 or before 0 are
// written with a sign and as many digits as needed).
std::string FormatDate(int64_t days);

// A time of day in `unit`s since midnight as HH:MM:SS[.fraction], the fraction without
// trailing zeros.
std::string FormatTime(int64_t value, TimeUnit unit);

// `value` `unit`s since the epoch as "YYYY-MM-DD HH:MM:SS[.fraction]", then "+00" when
// `utc_adjusted` (an instant rather than a local date-time).
std::string FormatTimestamp(int64_t value, TimeUnit unit, bool utc_adjusted);

// An unscaled integer given as big-endian two's complement bytes (any length) as an exact
// decimal with `scale` digits after the point.
std::string FormatDecimalBytes(std::span<const uint8_t> big_endian, int32_t scale);
std::string FormatDecimal(int64_t unscaled, int32_t scale);

// The shortest text that reads back as the same value; "nan", "inf", "-inf".
std::string FormatDouble(double v);
std::string FormatFloat(float v);
// IEEE 754 half precision bits to float.
float HalfToFloat(uint16_t bits);

// "0x" and lowercase hex.
std::string FormatHex(std::span<const uint8_t> bytes);
// 16 bytes as 8-4-4-4-12 lowercase hex.
std::string FormatUuid(std::span<const uint8_t> bytes);
// The bytes as text, invalid UTF-8 bytes and control characters escaped as \xNN.
std::string FormatText(std::string_view bytes);

}  // namespace pqsift
