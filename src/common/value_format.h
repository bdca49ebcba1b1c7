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

// Standard base64 (RFC 4648: A-Z a-z 0-9 + /, '=' padding).
std::string FormatBase64(std::span<const uint8_t> bytes);

// A decimal128 value as Arrow stores it (16 bytes, little-endian two's complement): the same
// text FormatDecimalBytes gives for the same integer.
std::string FormatDecimal128(std::span<const uint8_t, 16> little_endian, int32_t scale);

// Appending forms for writers that fill one reusable buffer: each appends exactly the text of
// the Format function of the same name, without a temporary string.
void AppendDouble(std::string& out, double v);
void AppendFloat(std::string& out, float v);
void AppendHex(std::string& out, std::span<const uint8_t> bytes);
void AppendBase64(std::string& out, std::span<const uint8_t> bytes);
void AppendDecimal128(std::string& out, std::span<const uint8_t, 16> little_endian, int32_t scale);
// Dates, times and timestamps: a fast path without snprintf for years 0..9999 (everything a
// real file holds), the Format function itself for anything else.
void AppendDate(std::string& out, int64_t days);
void AppendTime(std::string& out, int64_t value, TimeUnit unit);
void AppendTimestamp(std::string& out, int64_t value, TimeUnit unit, bool utc_adjusted);

}  // namespace pqsift
