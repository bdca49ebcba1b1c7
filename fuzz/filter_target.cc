// Target "filter": the input is `--where` text, parsed and bound against a schema with a column
// of every type family (flat, in a struct, in a list), as the scanner binds a filter to each
// file (docs/filter-language.md). Syntax and type errors are InvalidArgument; nothing else may
// come out.
#include <string_view>
#include <vector>

#include "expr/binder.h"
#include "expr/parser.h"
#include "fuzz_targets.h"

namespace pqsift::fuzz {

namespace {

SchemaElement Element(std::string_view name, std::optional<PhysicalType> type,
                      std::optional<LogicalType> logical = std::nullopt, int32_t type_length = 0) {
  SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = Repetition::kOptional;
  e.logical_type = logical;
  if (type_length > 0) e.type_length = type_length;
  return e;
}

SchemaElement GroupElement(std::string_view name, int32_t children, Repetition repetition,
                           std::optional<LogicalType> logical = std::nullopt) {
  SchemaElement e = Element(name, std::nullopt, logical);
  e.repetition_type = repetition;
  e.num_children = children;
  return e;
}

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType Integer(int8_t bits, bool is_signed) {
  LogicalType t = Logical(LogicalType::Kind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}

LogicalType Decimal(int32_t precision, int32_t scale) {
  LogicalType t = Logical(LogicalType::Kind::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}

LogicalType Temporal(LogicalType::Kind kind, TimeUnit unit, bool utc) {
  LogicalType t = Logical(kind);
  t.unit = unit;
  t.is_adjusted_to_utc = utc;
  return t;
}

// Columns: i64, i8, u64, dec, big, f32, f64, h, s, bin, uuid, fsb, d, ts, tsz, t, b, st.a, st.b,
// l (a list of INT32).
const Schema& FilterSchema() {
  static const Schema schema = [] {
    using P = PhysicalType;
    using K = LogicalType::Kind;
    std::vector<SchemaElement> e = {
        GroupElement("schema", 19, Repetition::kRequired),
        Element("i64", P::kInt64),
        Element("i8", P::kInt32, Integer(8, true)),
        Element("u64", P::kInt64, Integer(64, false)),
        Element("dec", P::kInt64, Decimal(10, 2)),
        Element("big", P::kFixedLenByteArray, Decimal(38, 4), 16),
        Element("f32", P::kFloat),
        Element("f64", P::kDouble),
        Element("h", P::kFixedLenByteArray, Logical(K::kFloat16), 2),
        Element("s", P::kByteArray, Logical(K::kString)),
        Element("bin", P::kByteArray),
        Element("uuid", P::kFixedLenByteArray, Logical(K::kUuid), 16),
        Element("fsb", P::kFixedLenByteArray, std::nullopt, 3),
        Element("d", P::kInt32, Logical(K::kDate)),
        Element("ts", P::kInt64, Temporal(K::kTimestamp, TimeUnit::kMicros, false)),
        Element("tsz", P::kInt64, Temporal(K::kTimestamp, TimeUnit::kNanos, true)),
        Element("t", P::kInt64, Temporal(K::kTime, TimeUnit::kMicros, false)),
        Element("b", P::kBoolean),
        GroupElement("st", 2, Repetition::kOptional),
        Element("a", P::kInt32),
        Element("b", P::kByteArray, Logical(K::kString)),
        GroupElement("l", 1, Repetition::kOptional, Logical(K::kList)),
        GroupElement("list", 1, Repetition::kRepeated),
        Element("element", P::kInt32),
    };
    Result<Schema> built = Schema::Build(e, nullptr);
    if (!built.ok()) __builtin_trap();
    return std::move(built).value();
  }();
  return schema;
}

}  // namespace

void FuzzFilter(std::span<const uint8_t> input) {
  std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
  Result<std::unique_ptr<expr::AstNode>> ast = expr::Parse(text);
  if (!ast.ok() && ast.status().code() != StatusCode::kInvalidArgument) __builtin_trap();
  Result<expr::BoundFilter> bound = expr::BindFilter(text, FilterSchema());
  if (!bound.ok() && bound.status().code() != StatusCode::kInvalidArgument) __builtin_trap();
  if (bound.ok() && !ast.ok()) __builtin_trap();  // binding parses the same text
}

}  // namespace pqsift::fuzz
