#include "variant/shredding.h"

#include <cstring>
#include <span>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "arrow/layout.h"
#include "arrow/utf8.h"
#include "variant/builder.h"

namespace pqsift::variant {

std::shared_ptr<const DataType> VariantArrowType() {
  static const std::shared_ptr<const DataType> kType = [] {
    DataType t =
        *Struct({Field{"metadata", LargeBinary(), false}, Field{"value", LargeBinary(), false}});
    t.extension_name = std::string(kVariantExtensionName);
    return std::make_shared<const DataType>(std::move(t));
  }();
  return kType;
}

bool IsVariantType(const DataType& type) { return type.extension_name == kVariantExtensionName; }

// ---- planning ----

namespace {

using Kind = ShredNode::Kind;
using LKind = LogicalType::Kind;

class Planner {
 public:
  explicit Planner(const Schema& schema) : s_(schema) {}

  std::string PathOf(int32_t index) const {
    std::string path;
    for (int32_t i = index; i > 0; i = s_.nodes()[i].parent) {
      path.insert(0, std::string(i == index ? "" : ".").insert(0, s_.nodes()[i].name));
    }
    return path;
  }

  Status Unsupported(int32_t index, const std::string& what) const {
    return Status::NotSupported("variant column '" + PathOf(index) +
                                "': unsupported shredded value type: " + what);
  }
  Status Invalid(int32_t index, const std::string& what) const {
    return Status::Corruption("variant column '" + PathOf(index) + "': " + what);
  }

  // A group's `value` and `typed_value` children (plus `metadata` at the top).
  Status PlanPair(int32_t group, ShredNode* out, int32_t* metadata) {
    const SchemaNode& g = s_.nodes()[group];
    if (g.is_leaf()) return Invalid(group, "a shredded field must be a group");
    for (size_t i = 0; i < g.children.size(); ++i) {
      const int32_t c = g.children[i];
      const SchemaNode& n = s_.nodes()[c];
      const auto at = static_cast<int32_t>(i);
      if (n.repetition == Repetition::kRepeated) {
        return Invalid(c, "'" + std::string(n.name) + "' must not be repeated");
      }
      if (n.name == "value" || (metadata != nullptr && n.name == "metadata")) {
        if (!n.is_leaf() || n.physical_type != PhysicalType::kByteArray) {
          return Invalid(c, "'" + std::string(n.name) + "' must be a binary column");
        }
        if (n.name == "value") {
          out->value = at;
        } else {
          *metadata = at;
        }
      } else if (n.name == "typed_value") {
        out->typed = at;
        PQSIFT_RETURN_IF_ERROR(PlanTyped(c, out));
      } else {
        return Invalid(c, "unexpected field '" + std::string(n.name) + "'");
      }
    }
    if (metadata != nullptr && *metadata < 0) return Invalid(group, "no 'metadata' column");
    if (out->value < 0 && out->typed < 0) {
      return Invalid(group, "neither 'value' nor 'typed_value' is present");
    }
    return Status::OK();
  }

  Status PlanTyped(int32_t index, ShredNode* out) {
    const SchemaNode& n = s_.nodes()[index];
    if (n.is_leaf()) {
      out->kind = Kind::kPrimitive;
      PQSIFT_ASSIGN_OR_RETURN(out->primitive, PrimitiveFor(index));
      return Status::OK();
    }
    if (n.logical_type.kind == LKind::kList || n.converted_type == ConvertedType::kList) {
      // The 3-level list: repeated group `list` { required group element {value, typed_value} }.
      if (n.children.size() != 1) return Invalid(index, "a shredded array must be a 3-level list");
      const int32_t rp = n.children[0];
      const SchemaNode& r = s_.nodes()[rp];
      if (r.is_leaf() || r.repetition != Repetition::kRepeated || r.children.size() != 1 ||
          r.name == "array" || r.name == "typed_value_tuple") {
        return Invalid(index, "a shredded array must be a 3-level list");
      }
      const int32_t element = r.children[0];
      if (s_.nodes()[element].repetition != Repetition::kRequired) {
        return Invalid(element, "the list element of a shredded array must be required");
      }
      out->kind = Kind::kArray;
      out->children.resize(1);
      return PlanPair(element, &out->children[0], nullptr);
    }
    if (n.logical_type.kind != LKind::kNone || n.converted_type.has_value()) {
      return Unsupported(index, "group annotated " + LogicalTypeName(n.logical_type));
    }
    out->kind = Kind::kObject;
    out->children.resize(n.children.size());
    for (size_t i = 0; i < n.children.size(); ++i) {
      const int32_t f = n.children[i];
      if (s_.nodes()[f].repetition != Repetition::kRequired) {
        return Invalid(f, "a shredded object field must be a required group");
      }
      for (const std::string& earlier : out->names) {
        if (earlier == s_.nodes()[f].name) return Invalid(f, "shredded field name repeated");
      }
      out->names.emplace_back(s_.nodes()[f].name);
      PQSIFT_RETURN_IF_ERROR(PlanPair(f, &out->children[i], nullptr));
    }
    return Status::OK();
  }

  // The Variant type a shredded leaf holds (VariantShredding.md, "Shredded Value Types").
  Result<Type> PrimitiveFor(int32_t index) const {
    const SchemaNode& n = s_.nodes()[index];
    const LogicalType& lt = n.logical_type;
    const std::string what = std::string(PhysicalTypeName(*n.physical_type)) +
                             (lt.kind == LKind::kNone ? "" : " " + LogicalTypeName(lt));
    switch (*n.physical_type) {
      case PhysicalType::kBoolean:
        if (lt.kind == LKind::kNone) return Type::kBoolean;
        break;
      case PhysicalType::kInt32:
        if (lt.kind == LKind::kNone) return Type::kInt32;
        if (lt.kind == LKind::kInteger && lt.is_signed) {
          if (lt.bit_width == 8) return Type::kInt8;
          if (lt.bit_width == 16) return Type::kInt16;
          if (lt.bit_width == 32) return Type::kInt32;
        }
        if (lt.kind == LKind::kDecimal && lt.precision <= 9) return Type::kDecimal4;
        if (lt.kind == LKind::kDate) return Type::kDate;
        break;
      case PhysicalType::kInt64:
        if (lt.kind == LKind::kNone) return Type::kInt64;
        if (lt.kind == LKind::kInteger && lt.is_signed && lt.bit_width == 64) return Type::kInt64;
        if (lt.kind == LKind::kDecimal && lt.precision <= 18) return Type::kDecimal8;
        if (lt.kind == LKind::kTime && !lt.is_adjusted_to_utc && lt.unit == TimeUnit::kMicros) {
          return Type::kTimeNtzMicros;
        }
        if (lt.kind == LKind::kTimestamp && lt.unit == TimeUnit::kMicros) {
          return lt.is_adjusted_to_utc ? Type::kTimestampMicros : Type::kTimestampNtzMicros;
        }
        if (lt.kind == LKind::kTimestamp && lt.unit == TimeUnit::kNanos) {
          return lt.is_adjusted_to_utc ? Type::kTimestampNanos : Type::kTimestampNtzNanos;
        }
        break;
      case PhysicalType::kFloat:
        if (lt.kind == LKind::kNone) return Type::kFloat;
        break;
      case PhysicalType::kDouble:
        if (lt.kind == LKind::kNone) return Type::kDouble;
        break;
      case PhysicalType::kByteArray:
        if (lt.kind == LKind::kNone) return Type::kBinary;
        if (lt.kind == LKind::kString) return Type::kString;
        if (lt.kind == LKind::kDecimal && lt.precision <= 38) return Type::kDecimal16;
        break;
      case PhysicalType::kFixedLenByteArray:
        if (lt.kind == LKind::kUuid && n.type_length == 16) return Type::kUuid;
        if (lt.kind == LKind::kDecimal && lt.precision <= 38 && n.type_length <= 16) {
          return Type::kDecimal16;
        }
        return Unsupported(index, what + "(" + std::to_string(n.type_length) + ")");
      default: break;
    }
    return Unsupported(index, what);
  }

 private:
  const Schema& s_;
};

}  // namespace

Result<ShreddingPlan> PlanShredding(const Schema& schema, int32_t group) {
  Planner planner(schema);
  ShreddingPlan plan;
  plan.column = planner.PathOf(group);
  PQSIFT_RETURN_IF_ERROR(planner.PlanPair(group, &plan.root, &plan.metadata));
  return plan;
}

// ---- unshredding ----

namespace {

std::span<const uint8_t> BinaryAt(const Array& a, int64_t i) {
  const int64_t* o = layout::Offsets<int64_t>(a);
  const int64_t b = o[a.offset + i];
  const int64_t e = o[a.offset + i + 1];
  return {a.buffers[2]->data() + b, static_cast<size_t>(e - b)};
}

template <typename T>
T FixedAt(const Array& a, int64_t i) {
  T v;
  std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}

// Integers of any Arrow width (int8..int64, date32, time64, timestamp) as int64.
int64_t IntegerAt(const Array& a, int64_t i) {
  switch (a.type->id) {
    case TypeId::kInt8: return FixedAt<int8_t>(a, i);
    case TypeId::kInt16: return FixedAt<int16_t>(a, i);
    case TypeId::kInt32:
    case TypeId::kDate32: return FixedAt<int32_t>(a, i);
    default: return FixedAt<int64_t>(a, i);
  }
}

class Rebuilder {
 public:
  Rebuilder(const ShreddingPlan& plan, int64_t row) : plan_(plan), row_(row) {}

  void SetMetadata(const Metadata* m) { metadata_ = m; }

  // The value of `node` at element `i` of struct `s` (the group holding value/typed_value),
  // appended to `out`; *present is false (nothing appended) when both are missing.
  Status Build(const ShredNode& node, const Array& s, int64_t i, std::string& out, bool* present) {
    const int64_t j = s.offset + i;  // a struct's offset applies to its children
    const Array* value =
        node.value >= 0 ? s.children[static_cast<size_t>(node.value)].get() : nullptr;
    const Array* typed =
        node.typed >= 0 ? s.children[static_cast<size_t>(node.typed)].get() : nullptr;
    const bool has_value = value != nullptr && value->IsValid(j);
    const bool has_typed = typed != nullptr && typed->IsValid(j);
    *present = has_value || has_typed;
    if (!has_typed) {
      if (!has_value) return Status::OK();
      const std::span<const uint8_t> bytes = BinaryAt(*value, j);
      auto parsed = Value::Parse(*metadata_, bytes);
      if (!parsed.ok()) return Fail(parsed.status().message());
      out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      return Status::OK();
    }
    switch (node.kind) {
      case Kind::kPrimitive:
        if (has_value) return Fail("both value and a shredded " + Name(node) + " typed_value");
        return Primitive(node.primitive, *typed, j, out);
      case Kind::kArray: {
        if (has_value) return Fail("both value and a shredded array typed_value");
        const int64_t* o = layout::Offsets<int64_t>(*typed);
        const int64_t begin = o[typed->offset + j];
        const int64_t end = o[typed->offset + j + 1];
        const Array& element = *typed->children[0];
        std::string bytes;
        std::vector<size_t> ends;
        for (int64_t k = begin; k < end; ++k) {
          path_.push_back("[" + std::to_string(k - begin) + "]");
          bool element_present = false;
          PQSIFT_RETURN_IF_ERROR(Build(node.children[0], element, k, bytes, &element_present));
          if (!element_present) EncodeNull(bytes);  // missing element: Variant null
          path_.pop_back();
          ends.push_back(bytes.size());
        }
        std::vector<std::span<const uint8_t>> elements;
        size_t start = 0;
        for (size_t e : ends) {
          elements.emplace_back(reinterpret_cast<const uint8_t*>(bytes.data()) + start, e - start);
          start = e;
        }
        EncodeArray(out, elements);
        return Status::OK();
      }
      case Kind::kObject: return Object(node, has_value ? value : nullptr, *typed, j, out);
      case Kind::kNone: break;
    }
    return Status::OK();
  }

  Status Fail(const std::string& what) const {
    std::string path;
    for (const std::string& p : path_) path += p;
    return Status::Corruption("variant column '" + plan_.column + "', row " + std::to_string(row_) +
                              " of the slice" + (path.empty() ? "" : ", at $" + path) + ": " +
                              what);
  }

 private:
  static std::string Name(const ShredNode& n) { return std::string(TypeName(n.primitive)); }

  Status Object(const ShredNode& node, const Array* value, const Array& typed, int64_t j,
                std::string& out) {
    std::string bytes;
    std::vector<size_t> ends;
    std::vector<FieldBytes> fields;
    for (size_t f = 0; f < node.names.size(); ++f) {
      path_.push_back("." + node.names[f]);
      bool field_present = false;
      const size_t before = bytes.size();
      PQSIFT_RETURN_IF_ERROR(
          Build(node.children[f], *typed.children[f], typed.offset + j, bytes, &field_present));
      if (field_present) {
        auto id = metadata_->Find(node.names[f]);
        if (!id) return Fail("shredded field name is not in the variant metadata");
        FieldBytes fb;
        fb.id = *id;
        fb.name = node.names[f];
        fields.push_back(fb);
        ends.push_back(before);
        ends.push_back(bytes.size());
      }
      path_.pop_back();
    }
    for (size_t k = 0; k < fields.size(); ++k) {
      fields[k].value = {reinterpret_cast<const uint8_t*>(bytes.data()) + ends[2 * k],
                         ends[2 * k + 1] - ends[2 * k]};
    }
    if (value != nullptr) {
      // A partially shredded object: the rest of its fields are in `value`.
      const std::span<const uint8_t> raw = BinaryAt(*value, j);
      auto parsed = Value::Parse(*metadata_, raw);
      if (!parsed.ok()) return Fail(parsed.status().message());
      const Value& v = *parsed;
      if (v.type() != Type::kObject) {
        return Fail("a non-object value (" + std::string(TypeName(v.type())) +
                    ") with a shredded object typed_value");
      }
      for (uint32_t k = 0; k < v.num_elements(); ++k) {
        const std::string_view name = v.field_name(k);
        for (const std::string& shredded : node.names) {
          if (shredded == name) {
            return Fail("field \"" + shredded +
                        "\" is both shredded and in the value of a partially shredded object");
          }
        }
        FieldBytes fb;
        fb.id = v.field_id(k);
        fb.name = name;
        fb.value = v.field_value(k).bytes();
        fields.push_back(fb);
      }
    }
    EncodeObject(out, fields);
    return Status::OK();
  }

  Status Primitive(Type type, const Array& a, int64_t j, std::string& out) const {
    switch (type) {
      case Type::kBoolean:
        EncodeBoolean(out, bit_util::GetBit(a.buffers[1]->data(), a.offset + j));
        return Status::OK();
      case Type::kInt8:
      case Type::kInt16:
      case Type::kInt32:
      case Type::kInt64: EncodeInteger(out, type, IntegerAt(a, j)); return Status::OK();
      case Type::kFloat: EncodeFloat(out, FixedAt<float>(a, j)); return Status::OK();
      case Type::kDouble: EncodeDouble(out, FixedAt<double>(a, j)); return Status::OK();
      case Type::kDate: EncodeDate(out, static_cast<int32_t>(IntegerAt(a, j))); return Status::OK();
      case Type::kTimeNtzMicros:
      case Type::kTimestampMicros:
      case Type::kTimestampNtzMicros:
      case Type::kTimestampNanos:
      case Type::kTimestampNtzNanos: EncodeTicks(out, type, IntegerAt(a, j)); return Status::OK();
      case Type::kDecimal4:
      case Type::kDecimal8:
      case Type::kDecimal16: {
        uint8_t le[16];
        std::memcpy(le, a.buffers[1]->data() + (a.offset + j) * 16, 16);
        unsigned __int128 u = 0;
        for (int k = 15; k >= 0; --k) u = (u << 8) | le[k];
        Decimal d{static_cast<__int128>(u), a.type->scale};
        const auto v = d.unscaled;
        if ((type == Type::kDecimal4 && (v < INT32_MIN || v > INT32_MAX)) ||
            (type == Type::kDecimal8 && (v < INT64_MIN || v > INT64_MAX))) {
          return Fail("decimal out of the range of " + std::string(TypeName(type)));
        }
        EncodeDecimal(out, type, d);
        return Status::OK();
      }
      case Type::kString: {
        const auto bytes = BinaryAt(a, j);
        std::string_view s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        if (!utf8::IsValid(s)) return Fail("shredded string is not UTF-8");
        EncodeString(out, s);
        return Status::OK();
      }
      case Type::kBinary: EncodeBinary(out, BinaryAt(a, j)); return Status::OK();
      case Type::kUuid: {
        const uint8_t* p = a.buffers[1]->data() + (a.offset + j) * 16;
        EncodeUuid(out, std::span<const uint8_t, 16>(p, 16));
        return Status::OK();
      }
      default: break;
    }
    return Fail("internal: no shredded reader for " + std::string(TypeName(type)));
  }

  const ShreddingPlan& plan_;
  const Metadata* metadata_ = nullptr;
  int64_t row_;
  std::vector<std::string> path_;
};

}  // namespace

Result<std::shared_ptr<Array>> Unshred(const ShreddingPlan& plan, const Array& group,
                                       int64_t first_row) {
  if (group.type->id != TypeId::kStruct ||
      group.children.size() <= static_cast<size_t>(plan.metadata)) {
    return Status::Internal("variant column '" + plan.column + "': not the planned struct");
  }
  const Array& metadata = *group.children[static_cast<size_t>(plan.metadata)];
  BitmapBuilder validity;
  LargeBinaryBuilder metadata_out;
  LargeBinaryBuilder value_out;
  std::string value;
  int64_t nulls = 0;
  for (int64_t i = 0; i < group.length; ++i) {
    if (!group.IsValid(i)) {
      validity.Append(false);
      metadata_out.AppendEmpty();
      value_out.AppendEmpty();
      ++nulls;
      continue;
    }
    Rebuilder rebuilder(plan, first_row + i);
    const int64_t j = group.offset + i;
    if (!metadata.IsValid(j)) return rebuilder.Fail("null metadata");
    const std::span<const uint8_t> md_bytes = BinaryAt(metadata, j);
    auto md = Metadata::Parse(md_bytes);
    if (!md.ok()) return rebuilder.Fail(md.status().message());
    rebuilder.SetMetadata(&*md);
    value.clear();
    bool present = false;
    PQSIFT_RETURN_IF_ERROR(rebuilder.Build(plan.root, group, i, value, &present));
    if (!present) EncodeNull(value);  // a missing top-level value reads as Variant null
    validity.Append(true);
    metadata_out.Append(
        std::string_view(reinterpret_cast<const char*>(md_bytes.data()), md_bytes.size()));
    value_out.Append(value);
  }
  auto make_binary = [&](LargeBinaryBuilder& b) {
    auto a = std::make_shared<Array>();
    a->type = LargeBinary();
    a->length = group.length;
    a->buffers.resize(3);
    b.Finish(&a->buffers[1], &a->buffers[2]);
    return a;
  };
  auto out = std::make_shared<Array>();
  out->type = VariantArrowType();
  out->length = group.length;
  out->null_count = nulls;
  out->buffers.push_back(validity.FinishValidity());
  out->children.push_back(make_binary(metadata_out));
  out->children.push_back(make_binary(value_out));
  return out;
}

}  // namespace pqsift::variant
