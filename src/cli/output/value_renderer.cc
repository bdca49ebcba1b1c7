// Per-type renderers (value_renderer.h). The text of each scalar comes from
// common/value_format.h; this file only decides quoting and the JSON shapes.
#include "cli/output/value_renderer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrow/layout.h"
#include "arrow/utf8.h"
#include "common/value_format.h"
#include "geo/geoarrow.h"
#include "geo/wkb.h"
#include "variant/json.h"
#include "variant/shredding.h"

namespace pqsift::cli {

ValueRenderer::ValueRenderer(const Array& array, RenderStyle style)
    : validity_(array.buffers.empty() || array.buffers[0] == nullptr ? nullptr
                                                                     : array.buffers[0]->data()),
      offset_(array.offset),
      all_null_(array.type->id == TypeId::kNull),
      json_(style == RenderStyle::kJson) {}

namespace {

using Decimal128Bytes = std::array<uint8_t, 16>;

constexpr int64_t kMaxSafeInteger = (int64_t{1} << 53) - 1;  // exact in a double

// Writes `body(out)` between double quotes when `quote`.
template <typename Body>
void MaybeQuoted(bool quote, std::string& out, Body&& body) {
  if (quote) out += '"';
  body(out);
  if (quote) out += '"';
}

// ---- scalar formatters: one per text form, called with the stored value ----

template <typename T>
struct IntFormat {
  bool quote_unsafe;  // JSON: strings beyond +-(2^53 - 1)
  void operator()(T v, std::string& out) const {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    bool quote = false;
    if constexpr (sizeof(T) == 8) {
      if constexpr (std::is_signed_v<T>) {
        quote = quote_unsafe && (v > kMaxSafeInteger || v < -kMaxSafeInteger);
      } else {
        quote = quote_unsafe && v > static_cast<uint64_t>(kMaxSafeInteger);
      }
    }
    MaybeQuoted(quote, out, [&](std::string& o) { o.append(buf, res.ptr); });
  }
};

template <typename T>
struct FloatFormat {
  bool json;
  void operator()(T v, std::string& out) const {
    if (json && !std::isfinite(v)) {
      out += std::isnan(v) ? "\"NaN\"" : v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    } else if constexpr (std::is_same_v<T, float>) {
      AppendFloat(out, v);
    } else {
      AppendDouble(out, v);
    }
  }
};

struct HalfFormat {
  bool json;
  void operator()(uint16_t bits, std::string& out) const {
    FloatFormat<float>{json}(HalfToFloat(bits), out);
  }
};

struct DecimalFormat {
  int32_t scale;
  bool quote;
  void operator()(const Decimal128Bytes& v, std::string& out) const {
    MaybeQuoted(quote, out, [&](std::string& o) { AppendDecimal128(o, v, scale); });
  }
};

struct DateFormat {
  bool quote;
  void operator()(int32_t days, std::string& out) const {
    MaybeQuoted(quote, out, [&](std::string& o) { AppendDate(o, days); });
  }
};

template <typename T>
struct TimeFormat {
  TimeUnit unit;
  bool quote;
  void operator()(T v, std::string& out) const {
    MaybeQuoted(quote, out, [&](std::string& o) { AppendTime(o, v, unit); });
  }
};

struct TimestampFormat {
  TimeUnit unit;
  bool utc;
  bool quote;
  void operator()(int64_t v, std::string& out) const {
    MaybeQuoted(quote, out, [&](std::string& o) { AppendTimestamp(o, v, unit, utc); });
  }
};

// ---- renderers ----

template <typename T, typename Format>
class PrimitiveRenderer final : public ValueRenderer {
 public:
  PrimitiveRenderer(const Array& a, RenderStyle style, Format format)
      : ValueRenderer(a, style),
        values_(a.buffers[1] ? a.buffers[1]->as<T>() : nullptr),
        format_(std::move(format)) {}
  void Append(int64_t i, std::string& out) const override {
    if (json_ && IsNull(i)) {
      out += "null";
      return;
    }
    format_(values_[offset_ + i], out);
  }

 private:
  const T* values_;
  Format format_;
};

template <typename T, typename Format>
std::unique_ptr<ValueRenderer> Primitive(const Array& a, RenderStyle style, Format format) {
  return std::make_unique<PrimitiveRenderer<T, Format>>(a, style, std::move(format));
}

class NullRenderer final : public ValueRenderer {
 public:
  NullRenderer(const Array& a, RenderStyle style) : ValueRenderer(a, style) {}
  void Append(int64_t, std::string& out) const override {
    if (json_) out += "null";
  }
};

class BoolRenderer final : public ValueRenderer {
 public:
  BoolRenderer(const Array& a, RenderStyle style)
      : ValueRenderer(a, style), bits_(a.buffers[1] ? a.buffers[1]->data() : nullptr) {}
  void Append(int64_t i, std::string& out) const override {
    if (json_ && IsNull(i)) {
      out += "null";
      return;
    }
    out += bit_util::GetBit(bits_, offset_ + i) ? "true" : "false";
  }

 private:
  const uint8_t* bits_;
};

// large_utf8 (text) and large_binary / fixed_size_binary (bytes): the element's bytes come
// from offsets or from a fixed width.
class BytesRenderer final : public ValueRenderer {
 public:
  BytesRenderer(const Array& a, RenderStyle style, bool text, bool base64)
      : ValueRenderer(a, style), style_(style), text_(text), base64_(base64) {
    if (a.type->id == TypeId::kFixedSizeBinary) {
      width_ = a.type->byte_width;
      data_ = a.buffers[1] ? a.buffers[1]->as<char>() : nullptr;
    } else {
      offsets_ = layout::Offsets<int64_t>(a);
      data_ = a.buffers[2] ? a.buffers[2]->as<char>() : nullptr;
    }
  }
  void Append(int64_t i, std::string& out) const override {
    if (json_ && IsNull(i)) {
      out += "null";
      return;
    }
    int64_t slot = offset_ + i;
    std::string_view v =
        offsets_ != nullptr
            ? std::string_view(data_ + offsets_[slot],
                               static_cast<size_t>(offsets_[slot + 1] - offsets_[slot]))
            : std::string_view(data_ + slot * width_, static_cast<size_t>(width_));
    if (text_) {
      switch (style_) {
        case RenderStyle::kJson: variant::AppendJsonString(out, v); break;
        case RenderStyle::kCsv: out.append(v); break;
        case RenderStyle::kTable: out += FormatText(v); break;
      }
      return;
    }
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    MaybeQuoted(json_, out, [&](std::string& o) {
      if (base64_) {
        AppendBase64(o, bytes);
      } else {
        AppendHex(o, bytes);
      }
    });
  }

 private:
  RenderStyle style_;
  bool text_;
  bool base64_;
  const int64_t* offsets_ = nullptr;
  int64_t width_ = 0;
  const char* data_ = nullptr;
};

// A dictionary array as the values its indices select, rendered by the dictionary's renderer. A
// NULL in the dictionary itself (pqsift's scans make none) is null in JSON and empty text in the
// other styles, whose callers only ask IsNull of the indices.
class DictionaryRenderer final : public ValueRenderer {
 public:
  DictionaryRenderer(const Array& a, RenderStyle style, const OutputOptions& options)
      : ValueRenderer(a, style), array_(a), values_(MakeRenderer(*a.dictionary, style, options)) {}
  void Append(int64_t i, std::string& out) const override {
    if (IsNull(i)) {
      out += "null";  // JSON only: the other styles never ask for a null element
      return;
    }
    const int32_t index = layout::DictionaryIndex(array_, i);
    if (json_ || !values_->IsNull(index)) values_->Append(index, out);
  }

 private:
  const Array& array_;
  std::unique_ptr<ValueRenderer> values_;
};

// large_list (int64 offsets) as a JSON array.
class ListRenderer final : public ValueRenderer {
 public:
  ListRenderer(const Array& a, const OutputOptions& options)
      : ValueRenderer(a, RenderStyle::kJson),
        offsets_(layout::Offsets<int64_t>(a)),
        child_(MakeRenderer(*a.children[0], RenderStyle::kJson, options)) {}
  void Append(int64_t i, std::string& out) const override {
    if (IsNull(i)) {
      out += "null";
      return;
    }
    out += '[';
    for (int64_t j = offsets_[offset_ + i]; j < offsets_[offset_ + i + 1]; ++j) {
      if (j > offsets_[offset_ + i]) out += ',';
      child_->Append(j, out);
    }
    out += ']';
  }

 private:
  const int64_t* offsets_;
  std::unique_ptr<ValueRenderer> child_;
};

// The "name": prefixes of an object's members.
std::vector<std::string> JsonKeys(const std::vector<Field>& fields) {
  std::vector<std::string> keys;
  for (const Field& f : fields) {
    std::string key;
    variant::AppendJsonString(key, f.name);
    key += ':';
    keys.push_back(std::move(key));
  }
  return keys;
}

class StructRenderer final : public ValueRenderer {
 public:
  StructRenderer(const Array& a, const OutputOptions& options)
      : ValueRenderer(a, RenderStyle::kJson), keys_(JsonKeys(a.type->children)) {
    for (const auto& child : a.children) {
      children_.push_back(MakeRenderer(*child, RenderStyle::kJson, options));
    }
  }
  void Append(int64_t i, std::string& out) const override {
    if (IsNull(i)) {
      out += "null";
      return;
    }
    out += '{';
    for (size_t c = 0; c < children_.size(); ++c) {
      if (c > 0) out += ',';
      out += keys_[c];
      children_[c]->Append(offset_ + i, out);  // a struct's offset applies to its children
    }
    out += '}';
  }

 private:
  std::vector<std::string> keys_;
  std::vector<std::unique_ptr<ValueRenderer>> children_;
};

// arrow.parquet.variant (struct<metadata, value> of binaries): the variant as JSON text
// (variant/json.h), in every style. Bytes that do not decode (an array not made by pqsift)
// render as a JSON string saying so.
class VariantRenderer final : public ValueRenderer {
 public:
  explicit VariantRenderer(const Array& a) : ValueRenderer(a, RenderStyle::kJson), a_(a) {
    for (size_t c = 0; c < a.type->children.size(); ++c) {
      if (a.type->children[c].name == "metadata") metadata_ = a.children[c].get();
      if (a.type->children[c].name == "value") value_ = a.children[c].get();
    }
  }
  void Append(int64_t i, std::string& out) const override {
    if (IsNull(i)) {
      out += "null";
      return;
    }
    if (metadata_ == nullptr || value_ == nullptr || !layout::IsBinaryLike(metadata_->type->id) ||
        !layout::IsBinaryLike(value_->type->id)) {
      out += "\"<variant without metadata and value binaries>\"";
      return;
    }
    const int64_t j = a_.offset + i;
    auto md = variant::Metadata::Parse(Bytes(*metadata_, j));
    if (!md.ok()) return Invalid(md.status(), out);
    auto v = variant::Value::Parse(*md, Bytes(*value_, j));
    if (!v.ok()) return Invalid(v.status(), out);
    variant::AppendJson(out, *v);
  }

 private:
  static std::span<const uint8_t> Bytes(const Array& b, int64_t j) {
    const int64_t* o = layout::Offsets<int64_t>(b);
    const int64_t begin = o[b.offset + j];
    return {b.buffers[2]->data() + begin, static_cast<size_t>(o[b.offset + j + 1] - begin)};
  }
  static void Invalid(const Status& s, std::string& out) {
    variant::AppendJsonString(out, "<invalid variant: " + s.message() + ">");
  }
  const Array& a_;
  const Array* metadata_ = nullptr;
  const Array* value_ = nullptr;
};

// geoarrow.wkb (large_binary of WKB): the geometry as WKT text (geo/wkb.h) in every style, a
// JSON string in JSON. Bytes that are not WKB render as "<invalid WKB: why>".
class WkbRenderer final : public ValueRenderer {
 public:
  WkbRenderer(const Array& a, RenderStyle style)
      : ValueRenderer(a, style), offsets_(layout::Offsets<int64_t>(a)) {
    data_ = a.buffers[2] ? a.buffers[2]->data() : nullptr;
  }
  void Append(int64_t i, std::string& out) const override {
    if (IsNull(i)) {
      if (json_) out += "null";
      return;
    }
    const int64_t slot = offset_ + i;
    std::span<const uint8_t> wkb(data_ + offsets_[slot],
                                 static_cast<size_t>(offsets_[slot + 1] - offsets_[slot]));
    text_.clear();
    Status s = geo::AppendWkt(wkb, text_);
    if (!s.ok()) text_ = "<invalid WKB: " + s.message() + ">";
    if (json_) {
      variant::AppendJsonString(out, text_);
    } else {
      out += text_;
    }
  }

 private:
  const int64_t* offsets_;
  const uint8_t* data_ = nullptr;
  mutable std::string text_;  // reused: one renderer serves one writer thread
};

// map (int32 offsets into an entries struct<key, value>).
class MapRenderer final : public ValueRenderer {
 public:
  MapRenderer(const Array& a, const OutputOptions& options)
      : ValueRenderer(a, RenderStyle::kJson), offsets_(layout::Offsets<int32_t>(a)) {
    const Array& entries = *a.children[0];
    entries_offset_ = entries.offset;
    keys_ = MakeRenderer(*entries.children[0], RenderStyle::kJson, options);
    values_ = MakeRenderer(*entries.children[1], RenderStyle::kJson, options);
    as_object_ = entries.children[0]->type->id == TypeId::kLargeString;
  }
  void Append(int64_t i, std::string& out) const override {
    if (IsNull(i)) {
      out += "null";
      return;
    }
    out += as_object_ ? '{' : '[';
    int64_t begin = offsets_[offset_ + i];
    int64_t end = offsets_[offset_ + i + 1];
    for (int64_t j = begin; j < end; ++j) {
      if (j > begin) out += ',';
      int64_t entry = entries_offset_ + j;  // key/value index (the entries' offset applies)
      if (as_object_) {
        keys_->Append(entry, out);
        out += ':';
        values_->Append(entry, out);
      } else {
        out += "{\"key\":";
        keys_->Append(entry, out);
        out += ",\"value\":";
        values_->Append(entry, out);
        out += '}';
      }
    }
    out += as_object_ ? '}' : ']';
  }

 private:
  const int32_t* offsets_;
  int64_t entries_offset_ = 0;
  std::unique_ptr<ValueRenderer> keys_;
  std::unique_ptr<ValueRenderer> values_;
  bool as_object_ = false;
};

}  // namespace

std::unique_ptr<ValueRenderer> MakeRenderer(const Array& a, RenderStyle style,
                                            const OutputOptions& options) {
  const DataType& type = *a.type;
  const bool json = style == RenderStyle::kJson;
  const bool quote_unsafe = json && !options.json_exact_numbers;
  switch (type.id) {
    case TypeId::kNull: return std::make_unique<NullRenderer>(a, style);
    case TypeId::kBoolean: return std::make_unique<BoolRenderer>(a, style);
    case TypeId::kInt8: return Primitive<int8_t>(a, style, IntFormat<int8_t>{false});
    case TypeId::kInt16: return Primitive<int16_t>(a, style, IntFormat<int16_t>{false});
    case TypeId::kInt32: return Primitive<int32_t>(a, style, IntFormat<int32_t>{false});
    case TypeId::kInt64: return Primitive<int64_t>(a, style, IntFormat<int64_t>{quote_unsafe});
    case TypeId::kUInt8: return Primitive<uint8_t>(a, style, IntFormat<uint8_t>{false});
    case TypeId::kUInt16: return Primitive<uint16_t>(a, style, IntFormat<uint16_t>{false});
    case TypeId::kUInt32: return Primitive<uint32_t>(a, style, IntFormat<uint32_t>{false});
    case TypeId::kUInt64: return Primitive<uint64_t>(a, style, IntFormat<uint64_t>{quote_unsafe});
    case TypeId::kFloat16: return Primitive<uint16_t>(a, style, HalfFormat{json});
    case TypeId::kFloat32: return Primitive<float>(a, style, FloatFormat<float>{json});
    case TypeId::kFloat64: return Primitive<double>(a, style, FloatFormat<double>{json});
    case TypeId::kDecimal128:
      return Primitive<Decimal128Bytes>(
          a, style, DecimalFormat{type.scale, quote_unsafe && type.precision > 15});
    case TypeId::kDate32: return Primitive<int32_t>(a, style, DateFormat{json});
    case TypeId::kTime32: return Primitive<int32_t>(a, style, TimeFormat<int32_t>{type.unit, json});
    case TypeId::kTime64: return Primitive<int64_t>(a, style, TimeFormat<int64_t>{type.unit, json});
    case TypeId::kTimestamp:
      return Primitive<int64_t>(a, style, TimestampFormat{type.unit, !type.timezone.empty(), json});
    case TypeId::kLargeString:
      return std::make_unique<BytesRenderer>(a, style, true, options.binary_as_base64);
    case TypeId::kLargeBinary:
      if (type.extension_name == geo::kGeoArrowWkb) return std::make_unique<WkbRenderer>(a, style);
      [[fallthrough]];
    case TypeId::kFixedSizeBinary:
      return std::make_unique<BytesRenderer>(a, style, false, options.binary_as_base64);
    case TypeId::kLargeList: return std::make_unique<ListRenderer>(a, options);
    case TypeId::kStruct:
      if (variant::IsVariantType(type)) return std::make_unique<VariantRenderer>(a);
      return std::make_unique<StructRenderer>(a, options);
    case TypeId::kMap: return std::make_unique<MapRenderer>(a, options);
    case TypeId::kDictionary: return std::make_unique<DictionaryRenderer>(a, style, options);
  }
  return std::make_unique<NullRenderer>(a, style);
}

}  // namespace pqsift::cli
