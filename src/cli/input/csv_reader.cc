#include "cli/input/csv_reader.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include "arrow/builder.h"
#include "expr/temporal_text.h"

namespace pqsift::cli {
namespace {

using expr::int128;

// How a field was written: NULL (empty, unquoted), "" (empty, quoted), or a value.
enum class FieldKind : uint8_t { kNull, kEmptyQuoted, kValue };

struct CsvField {
  std::string_view text;
  FieldKind kind = FieldKind::kValue;
};

// Splits the input into records of fields, reading it in blocks. Field views are valid until
// the next call to Next.
class RecordSource {
 public:
  RecordSource(std::istream& in, std::string name, char delimiter)
      : in_(in), name_(std::move(name)), delimiter_(delimiter), buffer_(kBlock) {}

  // The next record's fields; false at the end of the input.
  Result<bool> Next(std::vector<CsvField>& fields) {
    for (;;) {
      auto parsed = Parse(fields);
      if (!parsed.ok()) return parsed.status();
      if (*parsed != Outcome::kNeedMore) return *parsed == Outcome::kRecord;
      if (!Fill()) {
        return Status::IOError(name_ + ": read failed");
      }
    }
  }

  int64_t records() const { return records_; }

 private:
  static constexpr size_t kBlock = size_t{1} << 20;
  enum class Outcome { kRecord, kEnd, kNeedMore };

  // Moves the unparsed rest to the front and reads more after it (growing the buffer when one
  // record fills it). False when the stream failed (not at its end).
  bool Fill() {
    size_t rest = end_ - pos_;
    if (pos_ > 0) std::memmove(buffer_.data(), buffer_.data() + pos_, rest);
    pos_ = 0;
    end_ = rest;
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    in_.read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
    end_ += static_cast<size_t>(in_.gcount());
    if (in_.eof()) {
      eof_ = true;
      return true;
    }
    return static_cast<bool>(in_);
  }

  Status Error(const std::string& what) const {
    // records_ counts the header too: it is the number of the data record being parsed.
    return Status::InvalidArgument(name_ + ": record " + std::to_string(records_) + ": " + what);
  }

  // Parses one record from [pos_, end_): kNeedMore when it may continue past end_.
  Result<Outcome> Parse(std::vector<CsvField>& fields) {
    fields.clear();
    scratch_.clear();
    // Quoted fields are unescaped into scratch_; their views are made once it stops growing.
    std::vector<std::pair<size_t, size_t>> quoted;  // (field, offset in scratch_)
    // Every line is a record (a blank line is one NULL field: how a one-column CSV writes
    // NULL), except that the input may end without a line break.
    size_t p = pos_;
    if (p == end_) {
      if (!eof_) return Outcome::kNeedMore;
      pos_ = p;
      return Outcome::kEnd;
    }
    const char* b = buffer_.data();
    for (;;) {
      if (p < end_ && b[p] == '"') {
        size_t start = scratch_.size();
        ++p;
        for (;;) {
          const void* q = std::memchr(b + p, '"', end_ - p);
          if (q == nullptr) {
            if (!eof_) return Outcome::kNeedMore;
            return Error("a quoted field is not closed");
          }
          size_t at = static_cast<const char*>(q) - b;
          scratch_.append(b + p, at - p);
          if (at + 1 == end_ && !eof_) return Outcome::kNeedMore;
          if (at + 1 < end_ && b[at + 1] == '"') {
            scratch_.push_back('"');
            p = at + 2;
            continue;
          }
          p = at + 1;
          break;
        }
        quoted.emplace_back(fields.size(), start);
        fields.push_back({std::string_view(),
                          scratch_.size() == start ? FieldKind::kEmptyQuoted : FieldKind::kValue});
        // The view's length is right; its pointer is set below, once scratch_ stops moving.
        fields.back().text = std::string_view(scratch_.data(), scratch_.size() - start);
        if (p < end_ && b[p] == '\r') ++p;
        if (p < end_ && b[p] != delimiter_ && b[p] != '\n') {
          return Error("unexpected character after a closing quote");
        }
      } else {
        size_t q = p;
        while (q < end_ && b[q] != delimiter_ && b[q] != '\n') ++q;
        if (q == end_ && !eof_) return Outcome::kNeedMore;
        size_t len = q - p;
        if (len > 0 && b[p + len - 1] == '\r' && (q == end_ || b[q] == '\n')) --len;
        fields.push_back(
            {std::string_view(b + p, len), len == 0 ? FieldKind::kNull : FieldKind::kValue});
        p = q;
      }
      if (p < end_ && b[p] == delimiter_) {
        ++p;
        if (p == end_ && !eof_) return Outcome::kNeedMore;
        if (p == end_) {  // a last field that is empty
          fields.push_back({std::string_view(), FieldKind::kNull});
          break;
        }
        continue;
      }
      if (p < end_) ++p;  // the '\n'
      break;
    }
    for (auto [field, offset] : quoted) {
      fields[field].text = std::string_view(scratch_.data() + offset, fields[field].text.size());
    }
    pos_ = p;
    ++records_;
    return Outcome::kRecord;
  }

  std::istream& in_;
  std::string name_;
  char delimiter_;
  std::vector<char> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  std::string scratch_;
  int64_t records_ = 0;
};

// ---- values ----

bool ParseInt64(std::string_view s, int64_t& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

bool ParseDouble(std::string_view s, double& out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

bool ParseBool(std::string_view s, bool& out) {
  if (s == "true" || s == "TRUE" || s == "True") {
    out = true;
    return true;
  }
  if (s == "false" || s == "FALSE" || s == "False") {
    out = false;
    return true;
  }
  return false;
}

int64_t UnitsPerSecond(TimeUnit unit) {
  return unit == TimeUnit::kMillis ? 1000 : unit == TimeUnit::kMicros ? 1'000'000 : 1'000'000'000;
}

// Nanoseconds in `unit` exactly, or false (digits below the unit, or out of int64).
bool NanosTo(int128 nanos, TimeUnit unit, int64_t& out) {
  int128 per = 1'000'000'000 / UnitsPerSecond(unit);
  if (nanos % per != 0) return false;
  int128 v = nanos / per;
  if (v < INT64_MIN || v > INT64_MAX) return false;
  out = static_cast<int64_t>(v);
  return true;
}

// "[-]digits[.digits]" as an unscaled decimal of `scale` digits after the point, at most
// `precision` digits in all; no rounding (more fractional digits than the scale fail).
bool ParseDecimal(std::string_view s, int32_t precision, int32_t scale, int128& out) {
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  int128 v = 0;
  int digits = 0, fraction = -1;
  bool any = false;
  for (char c : s) {
    if (c == '.' && fraction < 0) {
      fraction = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    any = true;
    if (fraction >= 0 && ++fraction > scale) {
      if (c != '0') return false;  // a non-zero digit below the scale
      continue;
    }
    if (v != 0 || c != '0') ++digits;
    v = v * 10 + (c - '0');
    if (digits > 38) return false;
  }
  if (!any) return false;
  for (int f = std::max(fraction, 0); f < scale; ++f) {
    v *= 10;
    if (v != 0) ++digits;
  }
  if (digits > precision) return false;
  out = negative ? -v : v;
  return true;
}

// "decimal(p,s)" (spaces allowed around the numbers) -> p and s; false for anything else.
bool ParseDecimalType(std::string_view text, int* precision, int* scale) {
  constexpr std::string_view kPrefix = "decimal(";
  if (!text.starts_with(kPrefix) || !text.ends_with(')')) return false;
  std::string_view inner = text.substr(kPrefix.size(), text.size() - kPrefix.size() - 1);
  size_t comma = inner.find(',');
  if (comma == std::string_view::npos) return false;
  auto parse = [](std::string_view digits, int* out) {
    size_t b = digits.find_first_not_of(' ');
    size_t e = digits.find_last_not_of(' ');
    if (b == std::string_view::npos) return false;
    digits = digits.substr(b, e - b + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), *out);
    return error == std::errc() && end == digits.data() + digits.size();
  };
  return parse(inner.substr(0, comma), precision) && parse(inner.substr(comma + 1), scale);
}

// One column of the batch being built.
class CsvColumn {
 public:
  explicit CsvColumn(std::shared_ptr<const DataType> type) : type_(std::move(type)) { Reset(); }

  // Appends one field; false when it does not parse as the column's type.
  bool Append(const CsvField& f) {
    const bool is_text = type_->id == TypeId::kLargeString || type_->id == TypeId::kLargeBinary;
    if (f.kind == FieldKind::kNull || (f.kind == FieldKind::kEmptyQuoted && !is_text)) {
      AppendNull();
      return true;
    }
    std::string_view s = f.text;
    switch (type_->id) {
      case TypeId::kBoolean: {
        bool v;
        return ParseBool(s, v) && Put<bool>(v);
      }
      case TypeId::kInt8: return Integer<int8_t>(s);
      case TypeId::kInt16: return Integer<int16_t>(s);
      case TypeId::kInt32: return Integer<int32_t>(s);
      case TypeId::kInt64: return Integer<int64_t>(s);
      case TypeId::kUInt8: return Integer<uint8_t>(s);
      case TypeId::kUInt16: return Integer<uint16_t>(s);
      case TypeId::kUInt32: return Integer<uint32_t>(s);
      case TypeId::kUInt64: return Integer<uint64_t>(s);
      case TypeId::kFloat32: {
        double v;
        return ParseDouble(s, v) && Put<float>(static_cast<float>(v));
      }
      case TypeId::kFloat64: {
        double v;
        return ParseDouble(s, v) && Put<double>(v);
      }
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: std::get<BinaryArrayBuilder>(builder_).Append(s); return true;
      case TypeId::kDate32: {
        auto days = expr::ParseDate(s);
        return days && *days >= INT32_MIN && *days <= INT32_MAX &&
               Put<int32_t>(static_cast<int32_t>(*days));
      }
      case TypeId::kTime32:
      case TypeId::kTime64: {
        auto nanos = expr::ParseTimeOfDay(s);
        int64_t v;
        if (!nanos || !NanosTo(*nanos, type_->unit, v)) return false;
        return type_->id == TypeId::kTime32 ? Put<int32_t>(static_cast<int32_t>(v))
                                            : Put<int64_t>(v);
      }
      case TypeId::kTimestamp: {
        auto ts = expr::ParseTimestamp(s);
        int64_t v;
        // A zoned column takes zoned values (converted to UTC); a local column local ones.
        if (!ts || ts->has_zone != !type_->timezone.empty()) return false;
        return NanosTo(ts->nanos, type_->unit, v) && Put<int64_t>(v);
      }
      case TypeId::kDecimal128: {
        int128 v;
        if (!ParseDecimal(s, type_->precision, type_->scale, v)) return false;
        std::array<uint8_t, 16> bytes;
        std::memcpy(bytes.data(), &v, 16);
        return Put<std::array<uint8_t, 16>>(bytes);
      }
      default: return false;
    }
  }

  std::shared_ptr<Array> Finish() {
    auto out = std::visit(
        [](auto& b) -> std::shared_ptr<Array> {
          if constexpr (std::is_same_v<std::decay_t<decltype(b)>, std::monostate>) {
            return nullptr;
          } else {
            return b.Finish();
          }
        },
        builder_);
    Reset();
    return out;
  }

 private:
  template <typename T>
  bool Put(T v) {
    std::get<FixedWidthArrayBuilder<T>>(builder_).Append(v);
    return true;
  }
  template <typename T>
  bool Integer(std::string_view s) {
    if constexpr (std::is_same_v<T, uint64_t>) {
      uint64_t u;
      auto r = std::from_chars(s.data(), s.data() + s.size(), u);
      return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty() && Put<T>(u);
    } else {
      int64_t v;
      if (!ParseInt64(s, v)) return false;
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
      return Put<T>(static_cast<T>(v));
    }
  }
  void AppendNull() {
    std::visit(
        [](auto& b) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(b)>, std::monostate>) {
            b.AppendNull();
          }
        },
        builder_);
  }
  void Reset() {
    switch (type_->id) {
      case TypeId::kBoolean: builder_.emplace<FixedWidthArrayBuilder<bool>>(type_); break;
      case TypeId::kInt8: builder_.emplace<FixedWidthArrayBuilder<int8_t>>(type_); break;
      case TypeId::kInt16: builder_.emplace<FixedWidthArrayBuilder<int16_t>>(type_); break;
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kTime32: builder_.emplace<FixedWidthArrayBuilder<int32_t>>(type_); break;
      case TypeId::kInt64:
      case TypeId::kTime64:
      case TypeId::kTimestamp: builder_.emplace<FixedWidthArrayBuilder<int64_t>>(type_); break;
      case TypeId::kUInt8: builder_.emplace<FixedWidthArrayBuilder<uint8_t>>(type_); break;
      case TypeId::kUInt16: builder_.emplace<FixedWidthArrayBuilder<uint16_t>>(type_); break;
      case TypeId::kUInt32: builder_.emplace<FixedWidthArrayBuilder<uint32_t>>(type_); break;
      case TypeId::kUInt64: builder_.emplace<FixedWidthArrayBuilder<uint64_t>>(type_); break;
      case TypeId::kFloat32: builder_.emplace<FixedWidthArrayBuilder<float>>(type_); break;
      case TypeId::kFloat64: builder_.emplace<FixedWidthArrayBuilder<double>>(type_); break;
      case TypeId::kDecimal128:
        builder_.emplace<FixedWidthArrayBuilder<std::array<uint8_t, 16>>>(type_);
        break;
      default: builder_.emplace<BinaryArrayBuilder>(type_); break;
    }
  }

  std::shared_ptr<const DataType> type_;
  std::variant<std::monostate, FixedWidthArrayBuilder<bool>, FixedWidthArrayBuilder<int8_t>,
               FixedWidthArrayBuilder<int16_t>, FixedWidthArrayBuilder<int32_t>,
               FixedWidthArrayBuilder<int64_t>, FixedWidthArrayBuilder<uint8_t>,
               FixedWidthArrayBuilder<uint16_t>, FixedWidthArrayBuilder<uint32_t>,
               FixedWidthArrayBuilder<uint64_t>, FixedWidthArrayBuilder<float>,
               FixedWidthArrayBuilder<double>, FixedWidthArrayBuilder<std::array<uint8_t, 16>>,
               BinaryArrayBuilder>
      builder_;
};

// ---- inference ----

// What every non-empty value of a column seen so far parses as.
struct Inference {
  bool any = false;
  bool is_bool = true, is_int = true, is_double = true, is_date = true, is_timestamp = true;
  bool all_zoned = true, none_zoned = true, needs_nanos = false;

  void See(const CsvField& f) {
    if (f.kind != FieldKind::kValue) return;
    any = true;
    std::string_view s = f.text;
    bool b;
    int64_t i;
    double d;
    if (is_bool) is_bool = ParseBool(s, b);
    if (is_int) is_int = ParseInt64(s, i);
    if (is_double) is_double = ParseDouble(s, d);
    if (is_date) is_date = expr::ParseDate(s).has_value();
    if (is_timestamp) {
      auto ts = expr::ParseTimestamp(s);
      is_timestamp = ts.has_value();
      if (ts) {
        all_zoned &= ts->has_zone;
        none_zoned &= !ts->has_zone;
        needs_nanos |= ts->nanos % 1000 != 0;
      }
    }
  }

  std::shared_ptr<const DataType> Type() const {
    if (!any) return LargeUtf8();
    if (is_bool) return Boolean();
    if (is_int) return Int64();
    if (is_double) return Float64();
    if (is_date) return Date32();
    if (is_timestamp && (all_zoned || none_zoned)) {
      return Timestamp(needs_nanos ? TimeUnit::kNanos : TimeUnit::kMicros, all_zoned ? "UTC" : "");
    }
    return LargeUtf8();
  }
};

// The records read for inference, kept compactly until they are converted.
struct Sample {
  struct Entry {
    size_t offset;
    uint32_t size;
    FieldKind kind;
  };
  std::string bytes;
  std::vector<Entry> fields;  // records * columns entries
  size_t next = 0;            // the next record to hand out

  void Add(const std::vector<CsvField>& record) {
    for (const CsvField& f : record) {
      fields.push_back({bytes.size(), static_cast<uint32_t>(f.text.size()), f.kind});
      bytes.append(f.text);
    }
  }
};

}  // namespace

Result<std::shared_ptr<const DataType>> ParseColumnType(std::string_view name) {
  static const std::map<std::string_view, std::shared_ptr<const DataType>> kTypes = {
      {"bool", Boolean()},
      {"int8", Int8()},
      {"int16", Int16()},
      {"int32", Int32()},
      {"int64", Int64()},
      {"uint8", UInt8()},
      {"uint16", UInt16()},
      {"uint32", UInt32()},
      {"uint64", UInt64()},
      {"float", Float32()},
      {"float32", Float32()},
      {"double", Float64()},
      {"float64", Float64()},
      {"string", LargeUtf8()},
      {"binary", LargeBinary()},
      {"date", Date32()},
      {"time_ms", Time32(TimeUnit::kMillis)},
      {"time_us", Time64(TimeUnit::kMicros)},
      {"time_ns", Time64(TimeUnit::kNanos)},
      {"timestamp_ms", Timestamp(TimeUnit::kMillis, "")},
      {"timestamp_us", Timestamp(TimeUnit::kMicros, "")},
      {"timestamp_ns", Timestamp(TimeUnit::kNanos, "")},
      {"timestamp_ms_utc", Timestamp(TimeUnit::kMillis, "UTC")},
      {"timestamp_us_utc", Timestamp(TimeUnit::kMicros, "UTC")},
      {"timestamp_ns_utc", Timestamp(TimeUnit::kNanos, "UTC")},
  };
  if (auto it = kTypes.find(name); it != kTypes.end()) return it->second;
  int precision = 0, scale = 0;
  std::string text(name);
  if (ParseDecimalType(text, &precision, &scale) && precision >= 1 && precision <= 38 &&
      scale >= 0 && scale <= precision) {
    return Decimal128(precision, scale);
  }
  return Status::InvalidArgument("unknown column type '" + text +
                                 "' (bool, int8..int64, uint8..uint64, float, double, string, "
                                 "binary, date, time_ms|us|ns, timestamp_ms|us|ns[_utc], "
                                 "decimal(p,s))");
}

struct CsvReader::State {
  std::unique_ptr<RecordSource> source;
  std::string name;
  CsvOptions options;
  std::shared_ptr<BatchSchema> schema;
  std::vector<CsvColumn> columns;
  Sample sample;
  std::vector<CsvField> record;
  bool done = false;

  Status Add(const std::vector<CsvField>& fields, int64_t record_number) {
    if (fields.size() != columns.size()) {
      return Status::InvalidArgument(name + ": record " + std::to_string(record_number) + " has " +
                                     std::to_string(fields.size()) + " fields, the header " +
                                     std::to_string(columns.size()));
    }
    for (size_t c = 0; c < fields.size(); ++c) {
      if (!columns[c].Append(fields[c])) {
        const Field& field = schema->fields[c];
        return Status::InvalidArgument(
            name + ": record " + std::to_string(record_number) + ", column '" + field.name +
            "': '" + std::string(fields[c].text) + "' is not a valid " + field.type->ToString() +
            " (give the column's type with --schema)");
      }
    }
    return Status::OK();
  }
};

CsvReader::CsvReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
CsvReader::~CsvReader() = default;

std::shared_ptr<const BatchSchema> CsvReader::schema() const { return state_->schema; }

Result<std::unique_ptr<CsvReader>> CsvReader::Open(std::istream& in, const std::string& name,
                                                   const CsvOptions& options) {
  if (options.batch_rows < 1) return Status::InvalidArgument("batch_rows must be at least 1");
  auto s = std::make_unique<State>();
  s->name = name;
  s->options = options;
  s->source = std::make_unique<RecordSource>(in, name, options.delimiter);

  // The header.
  std::vector<CsvField> header;
  PQSIFT_ASSIGN_OR_RETURN(bool has_header, s->source->Next(header));
  if (!has_header) return Status::InvalidArgument(name + ": no header row");
  s->schema = std::make_shared<BatchSchema>();
  std::set<std::string> seen;
  for (const CsvField& f : header) {
    std::string column(f.text);
    if (column.empty()) column = "column" + std::to_string(s->schema->fields.size());
    if (!seen.insert(column).second) {
      std::string message = name;
      message += ": the header names column '" + column + "' twice";
      return Status::InvalidArgument(message);
    }
    s->schema->fields.push_back(Field{column, nullptr, true});
  }

  // Given types.
  std::vector<std::shared_ptr<const DataType>> given(header.size());
  for (const std::string& item : [&] {
         std::vector<std::string> items;
         size_t pos = 0;
         while (pos < options.schema.size()) {
           size_t comma = options.schema.find(',', pos);
           // A comma inside decimal(p,s) does not end the item.
           size_t paren = options.schema.find('(', pos);
           if (paren != std::string::npos && paren < comma) {
             comma = options.schema.find(',', options.schema.find(')', paren));
           }
           items.push_back(options.schema.substr(pos, comma - pos));
           pos = comma == std::string::npos ? options.schema.size() : comma + 1;
         }
         return items;
       }()) {
    size_t colon = item.rfind(':');
    if (colon == std::string::npos) {
      return Status::InvalidArgument("--schema item '" + item + "' is not name:type");
    }
    std::string column = item.substr(0, colon);
    size_t b = column.find_first_not_of(' '), e = column.find_last_not_of(' ');
    column = b == std::string::npos ? "" : column.substr(b, e - b + 1);
    auto type = ParseColumnType(item.substr(colon + 1));
    if (!type.ok()) return type.status();
    size_t index = 0;
    while (index < header.size() && s->schema->fields[index].name != column) ++index;
    if (index == header.size()) {
      std::string message = "--schema names column '" + column + "', which ";
      message += name;
      message += " does not have";
      return Status::InvalidArgument(message);
    }
    given[index] = *type;
  }

  // Inference over the first records, which are kept for the first batches.
  std::vector<Inference> inference(header.size());
  while (s->source->records() - 1 < options.infer_rows) {
    PQSIFT_ASSIGN_OR_RETURN(bool more, s->source->Next(s->record));
    if (!more) {
      s->done = true;
      break;
    }
    if (s->record.size() != header.size()) {
      return Status::InvalidArgument(name + ": record " + std::to_string(s->source->records() - 1) +
                                     " has " + std::to_string(s->record.size()) +
                                     " fields, the header " + std::to_string(header.size()));
    }
    for (size_t c = 0; c < header.size(); ++c) inference[c].See(s->record[c]);
    s->sample.Add(s->record);
  }
  for (size_t c = 0; c < header.size(); ++c) {
    s->schema->fields[c].type = given[c] ? given[c] : inference[c].Type();
    s->columns.emplace_back(s->schema->fields[c].type);
  }
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(s)));
}

Result<std::shared_ptr<RecordBatch>> CsvReader::Next() {
  State& s = *state_;
  const size_t width = s.columns.size();
  int64_t rows = 0;
  // First the sampled records, then the rest of the input.
  const size_t sampled = width == 0 ? 0 : s.sample.fields.size() / width;
  std::vector<CsvField> record(width);
  while (rows < s.options.batch_rows && s.sample.next < sampled) {
    for (size_t c = 0; c < width; ++c) {
      const Sample::Entry& e = s.sample.fields[s.sample.next * width + c];
      record[c] = {std::string_view(s.sample.bytes.data() + e.offset, e.size), e.kind};
    }
    ++s.sample.next;
    PQSIFT_RETURN_IF_ERROR(s.Add(record, static_cast<int64_t>(s.sample.next)));
    ++rows;
  }
  if (s.sample.next == sampled && sampled > 0) s.sample = Sample{};  // free it
  while (rows < s.options.batch_rows && !s.done) {
    PQSIFT_ASSIGN_OR_RETURN(bool more, s.source->Next(s.record));
    if (!more) {
      s.done = true;
      break;
    }
    PQSIFT_RETURN_IF_ERROR(s.Add(s.record, s.source->records() - 1));
    ++rows;
  }
  if (rows == 0) return std::shared_ptr<RecordBatch>();
  auto batch = std::make_shared<RecordBatch>();
  batch->schema = s.schema;
  batch->num_rows = rows;
  for (CsvColumn& column : s.columns) batch->columns.push_back(column.Finish());
  return batch;
}

}  // namespace pqsift::cli
