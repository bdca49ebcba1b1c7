// Rendering one array's elements as text, shared by the CSV, JSON Lines and table writers.
// One renderer per column per batch; per-type work is a template instantiated once per
// (stored type, text form), and the per-element cost is one virtual call plus the formatting
// into a caller-owned, reused std::string (no allocation for numbers, strings or binary).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "arrow/bit_util.h"
#include "cli/output/batch_writer.h"
#include "pqsift/array.h"

namespace pqsift::cli {

enum class RenderStyle {
  kJson,   // a JSON value: null, numbers, strings, arrays, objects (see batch_writer.h)
  kCsv,    // a CSV field's text before quoting: strings raw, nested values as JSON
  kTable,  // a table cell: strings escaped with FormatText, nested values as JSON
};

class ValueRenderer {
 public:
  virtual ~ValueRenderer() = default;
  // Appends element i (0-based within the array, i.e. before its offset). In kJson a null
  // element is written as null; the other styles REQUIRE !IsNull(i).
  virtual void Append(int64_t i, std::string& out) const = 0;
  bool IsNull(int64_t i) const {
    return all_null_ || (validity_ != nullptr && !bit_util::GetBit(validity_, offset_ + i));
  }

 protected:
  ValueRenderer(const Array& array, RenderStyle style);
  const uint8_t* validity_;
  int64_t offset_;
  bool all_null_;
  bool json_;
};

// A renderer for `array`, which must outlive it. REQUIRES: ValidateArrayLayout accepted the
// array and its offsets are monotonic (ValidateArray). Nested types always render as JSON.
std::unique_ptr<ValueRenderer> MakeRenderer(const Array& array, RenderStyle style,
                                            const OutputOptions& options);

}  // namespace pqsift::cli
