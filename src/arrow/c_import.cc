// Import from the Arrow C Data Interface: ArrowSchema -> Field, ArrowArray -> Array sharing
// the producer's memory. The input is untrusted: every count is checked, buffer sizes are
// derived from the type, length and offset, and the result goes through ValidateArray.
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "arrow/bit_util.h"
#include "arrow/layout.h"
#include "pqsift/arrow_export.h"

namespace pqsift {
namespace {

constexpr int kMaxDepth = 64;
constexpr int64_t kMaxElements = int64_t{1} << 56;

// Owns a moved-in C array; releases it once, when the last imported buffer lets go.
struct ImportedArray {
  ArrowArray c{};
  ~ImportedArray() {
    if (c.release != nullptr) c.release(&c);
  }
};

bool ParseInt(std::string_view text, int32_t* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

Result<TimeUnit> ParseUnit(char c, std::string_view format) {
  switch (c) {
    case 'm': return TimeUnit::kMillis;
    case 'u': return TimeUnit::kMicros;
    case 'n': return TimeUnit::kNanos;
    case 's':
      return Status::NotSupported("format '" + std::string(format) +
                                  "': time unit seconds is not supported");
    default: return Status::InvalidArgument("format '" + std::string(format) + "': bad time unit");
  }
}

// The type of a leaf format (everything but "+..."), or an error.
Result<std::shared_ptr<const DataType>> ParseLeafFormat(std::string_view f) {
  if (f.size() == 1) {
    switch (f[0]) {
      case 'n': return NullType();
      case 'b': return Boolean();
      case 'c': return Int8();
      case 's': return Int16();
      case 'i': return Int32();
      case 'l': return Int64();
      case 'C': return UInt8();
      case 'S': return UInt16();
      case 'I': return UInt32();
      case 'L': return UInt64();
      case 'e': return Float16();
      case 'f': return Float32();
      case 'g': return Float64();
      case 'U': return LargeUtf8();
      case 'Z': return LargeBinary();
      default: break;
    }
  }
  if (f.starts_with("w:")) {
    int32_t width;
    if (!ParseInt(f.substr(2), &width) || width < 0) {
      return Status::InvalidArgument("bad format '" + std::string(f) + "'");
    }
    return FixedSizeBinary(width);
  }
  if (f.starts_with("d:")) {
    std::string_view rest = f.substr(2);
    size_t comma = rest.find(',');
    int32_t precision, scale, bits = 128;
    size_t comma2 = comma == std::string_view::npos ? comma : rest.find(',', comma + 1);
    std::string_view scale_text =
        comma == std::string_view::npos ? "" : rest.substr(comma + 1, comma2 - comma - 1);
    if (comma == std::string_view::npos || !ParseInt(rest.substr(0, comma), &precision) ||
        !ParseInt(scale_text, &scale) ||
        (comma2 != std::string_view::npos && !ParseInt(rest.substr(comma2 + 1), &bits))) {
      return Status::InvalidArgument("bad format '" + std::string(f) + "'");
    }
    if (bits != 128) {
      return Status::NotSupported("format '" + std::string(f) + "': only 128-bit decimals");
    }
    return Decimal128(precision, scale);
  }
  if (f == "tdD") return Date32();
  if (f.size() == 3 && f.starts_with("tt")) {
    PQSIFT_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f[2], f));
    return unit == TimeUnit::kMillis ? Time32(unit) : Time64(unit);
  }
  if (f.size() >= 4 && f.starts_with("ts") && f[3] == ':') {
    PQSIFT_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f[2], f));
    return Timestamp(unit, std::string(f.substr(4)));
  }
  return Status::NotSupported("Arrow format '" + std::string(f) + "' is not supported");
}

// The ARROW:extension:name and ARROW:extension:metadata values of a C Data Interface metadata
// block, or empty (also when the block is malformed: the metadata is advisory). Read with memcpy:
// no alignment is promised.
struct ExtensionInfo {
  std::string name;
  std::string metadata;
};
ExtensionInfo Extension(const char* metadata) {
  if (metadata == nullptr) return {};
  constexpr int32_t kMaxBytes = 1 << 20;  // no real schema's metadata is larger
  auto read_i32 = [](const char* p) {
    int32_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  ExtensionInfo out;
  int32_t pairs = read_i32(metadata);
  const char* p = metadata + 4;
  int64_t used = 4;
  for (int32_t i = 0; i < pairs && i < 1024; ++i) {
    std::string_view kv[2];
    for (auto& s : kv) {
      int32_t n = read_i32(p);
      if (n < 0 || used + 4 + n > kMaxBytes) return {};
      s = std::string_view(p + 4, static_cast<size_t>(n));
      p += 4 + n;
      used += 4 + n;
    }
    if (kv[0] == "ARROW:extension:name") out.name = std::string(kv[1]);
    if (kv[0] == "ARROW:extension:metadata") out.metadata = std::string(kv[1]);
  }
  return out;
}

Result<Field> ImportFieldAt(const ArrowSchema* schema, int depth) {
  if (schema == nullptr || schema->release == nullptr) {
    return Status::InvalidArgument("ArrowSchema is null or released");
  }
  if (depth > kMaxDepth) return Status::InvalidArgument("ArrowSchema nested too deeply");
  if (schema->format == nullptr) return Status::InvalidArgument("ArrowSchema without a format");
  std::string name = schema->name != nullptr ? schema->name : "";
  std::string_view format = schema->format;
  if (schema->dictionary != nullptr) {
    // The format is the indices'; pqsift keeps int32 ones, Arrow's default.
    if (format != "i") {
      return Status::NotSupported("field '" + name + "': dictionary indices of format '" +
                                  std::string(format) + "' (only int32, 'i')");
    }
    if (schema->n_children != 0) {
      return Status::InvalidArgument("field '" + name + "': a dictionary type with children");
    }
    PQSIFT_ASSIGN_OR_RETURN(Field values, ImportFieldAt(schema->dictionary, depth + 1));
    Field field{name, Dictionary(std::move(values.type)),
                (schema->flags & ARROW_FLAG_NULLABLE) != 0};
    PQSIFT_RETURN_IF_ERROR(ValidateType(*field.type).WithContext("field '" + name + "'"));
    return field;
  }
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == nullptr)) {
    return Status::InvalidArgument("field '" + name + "': bad n_children");
  }
  std::vector<Field> children;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    PQSIFT_ASSIGN_OR_RETURN(Field child, ImportFieldAt(schema->children[i], depth + 1));
    children.push_back(std::move(child));
  }
  Field field{name, nullptr, (schema->flags & ARROW_FLAG_NULLABLE) != 0};
  if (format == "+L" || format == "+m") {
    if (children.size() != 1) {
      return Status::InvalidArgument("field '" + name + "': " + std::string(format) +
                                     " needs one child");
    }
    if (format == "+L") {
      field.type = LargeList(std::move(children[0]));
    } else {
      Field& entries = children[0];
      if (entries.type->id != TypeId::kStruct || entries.type->children.size() != 2) {
        return Status::InvalidArgument("field '" + name + "': map entries must be a struct of 2");
      }
      // Some producers flag the entries or keys nullable; the data is checked for nulls.
      field.type = Map(entries.type->children[0], entries.type->children[1]);
      if (!entries.name.empty() && entries.name != "entries") {
        DataType copy = *field.type;
        copy.children[0].name = entries.name;
        field.type = std::make_shared<const DataType>(std::move(copy));
      }
    }
  } else if (format == "+s") {
    field.type = Struct(std::move(children));
  } else {
    if (!children.empty()) {
      return Status::InvalidArgument("field '" + name + "': format '" + std::string(format) +
                                     "' has no children");
    }
    auto type = ParseLeafFormat(format);
    if (!type.ok()) return type.status().WithContext("field '" + name + "'");
    field.type = *type;
  }
  PQSIFT_RETURN_IF_ERROR(ValidateType(*field.type).WithContext("field '" + name + "'"));
  ExtensionInfo extension = Extension(schema->metadata);
  if (!extension.name.empty()) {
    DataType copy = *field.type;
    copy.extension_name = std::move(extension.name);
    copy.extension_metadata = std::move(extension.metadata);
    field.type = std::make_shared<const DataType>(std::move(copy));
  }
  return field;
}

class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<ImportedArray> owner) : owner_(std::move(owner)) {}

  Result<std::shared_ptr<Array>> Import(const ArrowArray& c,
                                        const std::shared_ptr<const DataType>& type,
                                        const std::string& path, int depth) {
    auto fail = [&](const std::string& what) {
      return Status::InvalidArgument("imported array " + path + ": " + what);
    };
    if (depth > kMaxDepth) return fail("nested too deeply");
    if ((c.dictionary != nullptr) != (type->id == TypeId::kDictionary)) {
      return fail(c.dictionary == nullptr ? "a dictionary type without a dictionary"
                                          : "a dictionary for a " + type->ToString() + " array");
    }
    if (c.length < 0 || c.offset < 0 || c.length > kMaxElements || c.offset > kMaxElements) {
      return fail("bad length or offset");
    }
    if (c.null_count < -1 || c.null_count > c.length) return fail("bad null_count");
    const int n_buffers = layout::BufferCount(type->id);
    if (c.n_buffers != n_buffers || (n_buffers > 0 && c.buffers == nullptr)) {
      return fail("has " + std::to_string(c.n_buffers) + " buffers, " + type->ToString() +
                  " needs " + std::to_string(n_buffers));
    }
    size_t n_children = type->id == TypeId::kStruct  ? type->children.size()
                        : layout::IsNested(type->id) ? 1
                                                     : 0;
    if (c.n_children != static_cast<int64_t>(n_children) ||
        (n_children > 0 && c.children == nullptr)) {
      return fail("has " + std::to_string(c.n_children) + " children, expected " +
                  std::to_string(n_children));
    }

    auto out = std::make_shared<Array>();
    out->type = type;
    out->length = c.length;
    out->offset = c.length == 0 ? 0 : c.offset;  // nothing of an empty array is read
    const int64_t end = out->offset + out->length;
    auto buffer_at = [&](int i, int64_t size) -> std::shared_ptr<ArrowBuffer> {
      const void* p = c.buffers[i];
      if (p == nullptr) return nullptr;
      return ArrowBuffer::View(static_cast<const uint8_t*>(p), static_cast<size_t>(size), owner_);
    };
    if (type->id == TypeId::kNull) {
      out->null_count = c.length;
      return out;
    }
    out->buffers.resize(static_cast<size_t>(n_buffers));
    out->buffers[0] = buffer_at(0, bit_util::BytesForBits(end));
    if (c.null_count >= 0) {
      out->null_count = c.null_count;
    } else {
      out->null_count =
          out->buffers[0] == nullptr
              ? 0
              : c.length - bit_util::CountSetBits(out->buffers[0]->data(), out->offset, c.length);
    }

    switch (type->id) {
      case TypeId::kLargeString:
      case TypeId::kLargeBinary:
      case TypeId::kLargeList:
      case TypeId::kMap: {
        bool wide = type->id != TypeId::kMap;
        int64_t width = wide ? 8 : 4;
        if (c.buffers[1] == nullptr) {
          if (c.length != 0) return fail("no offsets buffer");
          out->offset = 0;
        } else {
          out->buffers[1] = buffer_at(1, (end + 1) * width);
        }
        int64_t last = 0;
        if (out->buffers[1] != nullptr) {
          last = wide ? out->buffers[1]->as<int64_t>()[end] : out->buffers[1]->as<int32_t>()[end];
        }
        if (last < 0) return fail("negative offset");
        if (layout::IsBinaryLike(type->id)) {
          out->buffers[2] = buffer_at(2, last);
          break;
        }
        PQSIFT_ASSIGN_OR_RETURN(auto child, ImportChild(c, 0, type->children[0], path, depth));
        out->children.push_back(std::move(child));
        break;
      }
      case TypeId::kStruct:
        for (size_t i = 0; i < type->children.size(); ++i) {
          PQSIFT_ASSIGN_OR_RETURN(auto child, ImportChild(c, i, type->children[i], path, depth));
          out->children.push_back(std::move(child));
        }
        break;
      case TypeId::kBoolean: out->buffers[1] = buffer_at(1, bit_util::BytesForBits(end)); break;
      case TypeId::kDictionary: {
        out->buffers[1] = buffer_at(1, end * static_cast<int64_t>(sizeof(int32_t)));
        PQSIFT_ASSIGN_OR_RETURN(out->dictionary, Import(*c.dictionary, type->value_type,
                                                        path + ".dictionary", depth + 1));
        break;
      }
      default: {
        int64_t width = layout::FixedByteWidth(*type);
        if (width > 0 && end > kMaxElements / width) return fail("size overflows");
        out->buffers[1] = buffer_at(1, end * width);
        break;
      }
    }
    return out;
  }

 private:
  Result<std::shared_ptr<Array>> ImportChild(const ArrowArray& c, size_t i, const Field& field,
                                             const std::string& path, int depth) {
    const ArrowArray* child = c.children[i];
    std::string child_path = path + "." + field.name;
    if (child == nullptr) {
      return Status::InvalidArgument("imported array " + child_path + ": missing");
    }
    return Import(*child, field.type, child_path, depth + 1);
  }

  std::shared_ptr<ImportedArray> owner_;
};

}  // namespace

Result<Field> ImportField(const ArrowSchema* schema) { return ImportFieldAt(schema, 0); }

Result<std::shared_ptr<BatchSchema>> ImportSchema(const ArrowSchema* schema) {
  PQSIFT_ASSIGN_OR_RETURN(Field root, ImportField(schema));
  if (root.type->id != TypeId::kStruct) {
    return Status::InvalidArgument("a schema must be a struct, found " + root.type->ToString());
  }
  auto out = std::make_shared<BatchSchema>();
  out->fields = root.type->children;
  return out;
}

Result<std::shared_ptr<Array>> ImportArray(ArrowArray* array, const ArrowSchema* schema) {
  if (array == nullptr || array->release == nullptr) {
    return Status::InvalidArgument("ImportArray: the ArrowArray is null or released");
  }
  auto owner = std::make_shared<ImportedArray>();
  owner->c = *array;  // moved: from here on the owner releases it, also on error
  array->release = nullptr;
  PQSIFT_ASSIGN_OR_RETURN(Field field, ImportField(schema));
  ArrayImporter importer(owner);
  PQSIFT_ASSIGN_OR_RETURN(auto out, importer.Import(owner->c, field.type, "array", 0));
  Status status = ValidateArray(*out);
  if (!status.ok()) return Status::InvalidArgument("ImportArray: " + status.message());
  return out;
}

Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array,
                                                       const ArrowSchema* schema) {
  PQSIFT_ASSIGN_OR_RETURN(auto batch_schema, ImportSchema(schema));
  PQSIFT_ASSIGN_OR_RETURN(auto root, ImportArray(array, schema));
  if (root->null_count != 0) {
    return Status::InvalidArgument("ImportRecordBatch: the struct array has nulls");
  }
  auto batch = std::make_shared<RecordBatch>();
  batch->schema = std::move(batch_schema);
  batch->num_rows = root->length;
  for (const auto& child : root->children) {
    if (root->offset == 0 && child->length == root->length) {
      batch->columns.push_back(child);
    } else {
      PQSIFT_ASSIGN_OR_RETURN(auto column, Slice(*child, root->offset, root->length));
      batch->columns.push_back(std::move(column));
    }
  }
  return batch;
}

}  // namespace pqsift
