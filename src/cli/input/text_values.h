// Typed values from text, shared by the text inputs (CSV, JSON Lines): one column builder that
// parses a field's text as its column's type, one type inference over sample values, and the
// --schema syntax.
//
// Inference (TypeInference): the first of bool (true/false), int64, double, date (YYYY-MM-DD),
// timestamp (YYYY-MM-DD[ T]HH:MM[:SS[.f]]; [us], or [ns] when a value has digits below the
// microsecond; zoned "UTC" when every value has a zone or offset) that every value seen parses
// as; string otherwise, and for columns with no values. Text that was a string in its source
// (a JSON string) may be a date or timestamp, never a boolean or a number.
//
// Thread safety: one thread per object.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pqsift/array.h"
#include "pqsift/status.h"

namespace pqsift::cli {

// How a field was written: NULL (CSV: empty, unquoted), "" (CSV: empty, quoted), or a value.
enum class FieldKind : uint8_t { kNull, kEmptyQuoted, kValue };

struct TextField {
  std::string_view text;
  FieldKind kind = FieldKind::kValue;
};

// One column of a batch being built from text fields.
class TextColumn {
 public:
  explicit TextColumn(std::shared_ptr<const DataType> type);
  ~TextColumn();
  TextColumn(TextColumn&&) noexcept;
  TextColumn& operator=(TextColumn&&) noexcept;

  // Appends one field: NULL for kNull, and for kEmptyQuoted in columns other than string and
  // binary. False when the text does not parse as the column's type.
  bool Append(const TextField& f);
  // The column so far (the builder starts again, empty).
  std::shared_ptr<Array> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What every value of a column seen so far parses as.
struct TypeInference {
  bool any = false;
  bool is_bool = true, is_int = true, is_double = true, is_date = true, is_timestamp = true;
  bool all_zoned = true, none_zoned = true, needs_nanos = false;

  // `text_only`: the value was a string in its source (never a boolean or a number).
  void See(const TextField& f, bool text_only = false);
  std::shared_ptr<const DataType> Type() const;
};

// A type name of --schema: bool, int8..int64, uint8..uint64, float (float32), double (float64),
// string, binary, date, time_ms, time_us, time_ns, timestamp_ms, timestamp_us, timestamp_ns (a
// "_utc" suffix: instants in UTC), decimal(p,s). InvalidArgument naming the text otherwise.
Result<std::shared_ptr<const DataType>> ParseColumnType(std::string_view name);

// "id:int64,ts:timestamp_us,price:decimal(10,2)" -> (name, type) pairs, in order.
Result<std::vector<std::pair<std::string, std::shared_ptr<const DataType>>>> ParseSchemaList(
    const std::string& text);

}  // namespace pqsift::cli
