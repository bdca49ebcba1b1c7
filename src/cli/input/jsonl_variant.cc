#include "cli/input/jsonl_variant.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "arrow/builder.h"
#include "variant/builder.h"
#include "variant/shredding.h"

namespace pqsift::cli {
namespace {

using Json = nlohmann::ordered_json;

// Every object key in `v`, at any depth; false when `v` nests deeper than kMaxDepth (the
// encoder recurses as deep as the value does).
constexpr int kMaxDepth = 64;
bool CollectKeys(const Json& v, std::vector<std::string_view>& keys, int depth = 0) {
  if (depth > kMaxDepth) return false;
  if (v.is_object()) {
    for (const auto& [key, value] : v.items()) {
      keys.push_back(key);
      if (!CollectKeys(value, keys, depth + 1)) return false;
    }
  } else if (v.is_array()) {
    for (const Json& x : v) {
      if (!CollectKeys(x, keys, depth + 1)) return false;
    }
  }
  return true;
}

std::span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

class Encoder {
 public:
  // The dictionary of `v`'s keys, sorted and unique, encoded into `metadata`; false when `v`
  // nests too deep.
  bool Start(const Json& v, std::string& metadata) {
    keys_.clear();
    if (!CollectKeys(v, keys_)) return false;
    std::sort(keys_.begin(), keys_.end());
    keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
    variant::EncodeMetadata(metadata, keys_);
    return true;
  }

  uint32_t Id(std::string_view key) const {
    return static_cast<uint32_t>(std::lower_bound(keys_.begin(), keys_.end(), key) - keys_.begin());
  }

  void Encode(std::string& out, const Json& v) const {
    switch (v.type()) {
      case Json::value_t::boolean: variant::EncodeBoolean(out, v.get<bool>()); return;
      case Json::value_t::number_integer: EncodeInteger(out, v.get<int64_t>()); return;
      case Json::value_t::number_unsigned: {
        auto u = v.get<uint64_t>();
        if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          EncodeInteger(out, static_cast<int64_t>(u));
        } else {
          variant::EncodeDouble(out, static_cast<double>(u));
        }
        return;
      }
      case Json::value_t::number_float: variant::EncodeDouble(out, v.get<double>()); return;
      case Json::value_t::string:
        variant::EncodeString(out, v.get_ref<const std::string&>());
        return;
      case Json::value_t::object: {
        std::vector<std::string> encoded;
        encoded.reserve(v.size());
        for (const auto& [key, value] : v.items()) Encode(encoded.emplace_back(), value);
        std::vector<variant::FieldBytes> fields;
        size_t i = 0;
        for (const auto& [key, value] : v.items()) {
          fields.push_back({Id(key), key, Bytes(encoded[i++])});
        }
        variant::EncodeObject(out, fields);
        return;
      }
      case Json::value_t::array: {
        std::vector<std::string> encoded;
        encoded.reserve(v.size());
        for (const Json& x : v) Encode(encoded.emplace_back(), x);
        std::vector<std::span<const uint8_t>> elements;
        elements.reserve(encoded.size());
        for (const std::string& e : encoded) elements.push_back(Bytes(e));
        variant::EncodeArray(out, elements);
        return;
      }
      default: variant::EncodeNull(out); return;
    }
  }

  // An object of the fields of `v` for which keep(key) holds.
  template <typename Keep>
  void EncodeObjectPart(std::string& out, const Json& v, Keep keep) const {
    std::vector<std::string> encoded;
    std::vector<std::string_view> names;
    for (const auto& [key, value] : v.items()) {
      if (!keep(key)) continue;
      Encode(encoded.emplace_back(), value);
      names.push_back(key);
    }
    std::vector<variant::FieldBytes> fields;
    for (size_t i = 0; i < names.size(); ++i) {
      fields.push_back({Id(names[i]), names[i], Bytes(encoded[i])});
    }
    variant::EncodeObject(out, fields);
  }

 private:
  static void EncodeInteger(std::string& out, int64_t v) {
    variant::Type t = variant::Type::kInt64;
    if (v >= INT8_MIN && v <= INT8_MAX) {
      t = variant::Type::kInt8;
    } else if (v >= INT16_MIN && v <= INT16_MAX) {
      t = variant::Type::kInt16;
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      t = variant::Type::kInt32;
    }
    variant::EncodeInteger(out, t, v);
  }

  std::vector<std::string_view> keys_;
};

// Whether JSON value `v` goes into a typed_value of `type`.
bool Fits(const Json& v, ShredType type) {
  switch (type) {
    case ShredType::kInt64:
      return v.is_number_integer() &&
             (!v.is_number_unsigned() ||
              v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
    case ShredType::kDouble: return v.is_number_float();
    case ShredType::kString: return v.is_string();
    case ShredType::kBoolean: return v.is_boolean();
  }
  return false;
}

std::shared_ptr<const DataType> TypedType(ShredType type) {
  switch (type) {
    case ShredType::kInt64: return Int64();
    case ShredType::kDouble: return Float64();
    case ShredType::kString: return LargeUtf8();
    case ShredType::kBoolean: return Boolean();
  }
  return LargeUtf8();
}

std::shared_ptr<Array> BinaryArray(std::shared_ptr<const DataType> type, LargeBinaryBuilder& b,
                                   BitmapBuilder* validity) {
  auto out = std::make_shared<Array>();
  out->type = std::move(type);
  out->length = b.length();
  out->buffers.resize(3);
  if (validity != nullptr) {
    out->null_count = validity->null_count();
    out->buffers[0] = validity->FinishValidity();
  }
  b.Finish(&out->buffers[1], &out->buffers[2]);
  return out;
}

}  // namespace

Result<std::vector<std::pair<std::string, std::vector<ShredField>>>> ParseShredList(
    const std::string& text) {
  std::vector<std::pair<std::string, std::vector<ShredField>>> out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(start, end - start);
    start = end + 1;
    if (part.empty()) continue;
    size_t colon = part.find(':');
    if (colon == std::string::npos || colon == 0) {
      return Status::InvalidArgument("--shred '" + part + "': expected col:field:type,...");
    }
    std::vector<ShredField> fields;
    std::string rest = part.substr(colon + 1);
    size_t at = 0;
    while (at < rest.size()) {
      size_t comma = rest.find(',', at);
      if (comma == std::string::npos) comma = rest.size();
      std::string item = rest.substr(at, comma - at);
      at = comma + 1;
      size_t c = item.rfind(':');
      if (c == std::string::npos || c == 0) {
        return Status::InvalidArgument("--shred '" + item + "': expected field:type");
      }
      ShredField f;
      f.name = item.substr(0, c);
      std::string type = item.substr(c + 1);
      if (type == "int64" || type == "bigint") {
        f.type = ShredType::kInt64;
      } else if (type == "double" || type == "float64") {
        f.type = ShredType::kDouble;
      } else if (type == "string" || type == "varchar") {
        f.type = ShredType::kString;
      } else if (type == "boolean" || type == "bool") {
        f.type = ShredType::kBoolean;
      } else {
        return Status::InvalidArgument("--shred field '" + f.name + "': type '" + type +
                                       "' is not int64, double, string or boolean");
      }
      for (const ShredField& g : fields) {
        if (g.name == f.name) {
          return Status::InvalidArgument("--shred names field '" + f.name + "' twice");
        }
      }
      fields.push_back(std::move(f));
    }
    out.emplace_back(part.substr(0, colon), std::move(fields));
  }
  return out;
}

std::vector<ShredField> InferShredding(const std::vector<const Json*>& sample) {
  struct Seen {
    std::string name;
    bool integer = false, number = false, string = false, boolean = false, other = false;
  };
  std::vector<Seen> seen;
  for (const Json* row : sample) {
    if (row == nullptr || !row->is_object()) continue;
    for (const auto& item : row->items()) {
      const std::string& key = item.key();  // (a name, not a structured binding: lambdas see it)
      const Json& value = item.value();
      auto it =
          std::find_if(seen.begin(), seen.end(), [&](const Seen& s) { return s.name == key; });
      if (it == seen.end()) {
        seen.push_back(Seen{key});
        it = seen.end() - 1;
      }
      if (value.is_null()) continue;
      if (Fits(value, ShredType::kInt64)) {
        it->integer = true;
      } else if (value.is_number_float()) {
        it->number = true;
      } else if (value.is_string()) {
        it->string = true;
      } else if (value.is_boolean()) {
        it->boolean = true;
      } else {
        it->other = true;
      }
    }
  }
  std::vector<ShredField> out;
  for (const Seen& s : seen) {
    if (s.integer + s.number + s.string + s.boolean != 1 || s.other) continue;
    ShredType type = s.integer  ? ShredType::kInt64
                     : s.number ? ShredType::kDouble
                     : s.string ? ShredType::kString
                                : ShredType::kBoolean;
    out.push_back({s.name, type});
  }
  return out;
}

std::shared_ptr<const DataType> ShreddedVariantType(const std::vector<ShredField>& fields) {
  if (fields.empty()) return variant::VariantArrowType();
  std::vector<Field> typed;
  typed.reserve(fields.size());
  for (const ShredField& f : fields) {
    typed.push_back(Field{f.name,
                          Struct({Field{"value", LargeBinary(), true},
                                  Field{"typed_value", TypedType(f.type), true}}),
                          false});
  }
  DataType t =
      *Struct({Field{"metadata", LargeBinary(), false}, Field{"value", LargeBinary(), true},
               Field{"typed_value", Struct(std::move(typed)), true}});
  t.extension_name = std::string(variant::kVariantExtensionName);
  return std::make_shared<const DataType>(std::move(t));
}

struct JsonVariantColumn::Impl {
  struct FieldColumn {
    ShredField spec;
    LargeBinaryBuilder value;
    BitmapBuilder value_valid;
    BitmapBuilder typed_valid;
    TypedBufferBuilder<int64_t> ints;
    TypedBufferBuilder<double> doubles;
    BitmapBuilder bools;
    LargeBinaryBuilder strings;
  };

  std::vector<FieldColumn> fields;
  std::shared_ptr<const DataType> type;
  Encoder encoder;
  int64_t rows = 0;
  BitmapBuilder valid;
  LargeBinaryBuilder metadata;
  LargeBinaryBuilder value;
  BitmapBuilder value_valid;
  BitmapBuilder typed_valid;
  std::string scratch;

  void AppendTyped(FieldColumn& f, const Json* v) {
    bool typed = v != nullptr;
    f.typed_valid.Append(typed);
    switch (f.spec.type) {
      case ShredType::kInt64:
        f.ints.Append(typed ? (v->is_number_unsigned() ? static_cast<int64_t>(v->get<uint64_t>())
                                                       : v->get<int64_t>())
                            : 0);
        break;
      case ShredType::kDouble: f.doubles.Append(typed ? v->get<double>() : 0); break;
      case ShredType::kBoolean: f.bools.Append(typed && v->get<bool>()); break;
      case ShredType::kString:
        if (typed) {
          f.strings.Append(v->get_ref<const std::string&>());
        } else {
          f.strings.AppendEmpty();
        }
        break;
    }
  }

  // One shredded field of a row: typed, fallback value, or missing (both NULL).
  void AppendField(FieldColumn& f, const Json* v) {
    if (v != nullptr && Fits(*v, f.spec.type)) {
      AppendTyped(f, v);
      f.value.AppendEmpty();
      f.value_valid.Append(false);
      return;
    }
    AppendTyped(f, nullptr);
    if (v == nullptr) {
      f.value.AppendEmpty();
      f.value_valid.Append(false);
      return;
    }
    scratch.clear();
    encoder.Encode(scratch, *v);
    f.value.Append(scratch);
    f.value_valid.Append(true);
  }

  void AppendValue(const std::string* bytes) {
    if (bytes == nullptr) {
      value.AppendEmpty();
      value_valid.Append(false);
    } else {
      value.Append(*bytes);
      value_valid.Append(true);
    }
  }

  Status Append(const Json* v) {
    std::string md;
    if (v != nullptr && !v->is_null() && !encoder.Start(*v, md)) {
      return Status::InvalidArgument("the value nests deeper than " + std::to_string(kMaxDepth) +
                                     " levels");
    }
    ++rows;
    if (v == nullptr || v->is_null()) {
      valid.Append(false);
      metadata.AppendEmpty();
      AppendValue(fields.empty() ? &scratch_empty : nullptr);
      typed_valid.Append(false);
      for (FieldColumn& f : fields) AppendField(f, nullptr);
      return Status::OK();
    }
    valid.Append(true);
    metadata.Append(md);
    if (fields.empty() || !v->is_object()) {
      std::string bytes;
      encoder.Encode(bytes, *v);
      AppendValue(&bytes);
      typed_valid.Append(false);
      for (FieldColumn& f : fields) AppendField(f, nullptr);
      return Status::OK();
    }
    typed_valid.Append(true);
    auto shredded = [&](std::string_view key) {
      return std::any_of(fields.begin(), fields.end(),
                         [&](const FieldColumn& f) { return f.spec.name == key; });
    };
    bool rest = false;
    for (const auto& [key, x] : v->items()) rest = rest || !shredded(key);
    if (rest) {
      std::string bytes;
      encoder.EncodeObjectPart(bytes, *v, [&](std::string_view key) { return !shredded(key); });
      AppendValue(&bytes);
    } else {
      AppendValue(nullptr);
    }
    for (FieldColumn& f : fields) {
      auto it = v->find(f.spec.name);
      AppendField(f, it == v->end() ? nullptr : &*it);
    }
    return Status::OK();
  }

  std::shared_ptr<Array> FinishField(FieldColumn& f, const DataType& type) {
    auto typed = std::make_shared<Array>();
    typed->type = type.children[1].type;
    typed->length = rows;
    typed->null_count = f.typed_valid.null_count();
    switch (f.spec.type) {
      case ShredType::kInt64:
        typed->buffers = {f.typed_valid.FinishValidity(), f.ints.Finish()};
        break;
      case ShredType::kDouble:
        typed->buffers = {f.typed_valid.FinishValidity(), f.doubles.Finish()};
        break;
      case ShredType::kBoolean:
        typed->buffers = {f.typed_valid.FinishValidity(), f.bools.Finish()};
        break;
      case ShredType::kString: typed = BinaryArray(typed->type, f.strings, &f.typed_valid); break;
    }
    auto out = std::make_shared<Array>();
    out->length = rows;               // its type: set by the caller
    out->buffers.push_back(nullptr);  // a required group: every slot valid
    out->children.push_back(BinaryArray(LargeBinary(), f.value, &f.value_valid));
    out->children.push_back(std::move(typed));
    f.value_valid = BitmapBuilder();
    f.typed_valid = BitmapBuilder();
    return out;
  }

  std::shared_ptr<Array> Finish() {
    auto out = std::make_shared<Array>();
    out->type = type;
    out->length = rows;
    out->null_count = valid.null_count();
    out->buffers.push_back(valid.FinishValidity());
    out->children.push_back(BinaryArray(LargeBinary(), metadata, nullptr));
    if (fields.empty()) {
      out->children.push_back(BinaryArray(LargeBinary(), value, nullptr));
      value_valid = BitmapBuilder();
    } else {
      out->children.push_back(BinaryArray(LargeBinary(), value, &value_valid));
      const DataType& typed_type = *type->children[2].type;
      auto typed = std::make_shared<Array>();
      typed->type = type->children[2].type;
      typed->length = rows;
      typed->null_count = typed_valid.null_count();
      typed->buffers.push_back(typed_valid.FinishValidity());
      for (size_t i = 0; i < fields.size(); ++i) {
        std::shared_ptr<Array> field = FinishField(fields[i], *typed_type.children[i].type);
        field->type = typed_type.children[i].type;
        typed->children.push_back(std::move(field));
      }
      out->children.push_back(std::move(typed));
    }
    valid = BitmapBuilder();
    typed_valid = BitmapBuilder();
    rows = 0;
    return out;
  }

  std::string scratch_empty;
};

JsonVariantColumn::JsonVariantColumn(std::vector<ShredField> fields)
    : impl_(std::make_unique<Impl>()) {
  impl_->type = ShreddedVariantType(fields);
  for (ShredField& f : fields) {
    Impl::FieldColumn column;
    column.spec = std::move(f);
    impl_->fields.push_back(std::move(column));
  }
}

JsonVariantColumn::~JsonVariantColumn() = default;

Status JsonVariantColumn::Append(const Json* v) { return impl_->Append(v); }

std::shared_ptr<Array> JsonVariantColumn::Finish() { return impl_->Finish(); }

}  // namespace pqsift::cli
