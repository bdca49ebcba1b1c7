// ValidateArray / ValidateArrayLayout / ValidateRecordBatch: the layout rules of array.h.
#include <limits>
#include <string>

#include "arrow/bit_util.h"
#include "arrow/layout.h"
#include "arrow/utf8.h"
#include "pqsift/array.h"

namespace pqsift {
namespace {

constexpr int64_t kMaxElements = int64_t{1} << 56;  // keeps every byte size below 2^63

class Validator {
 public:
  explicit Validator(bool full) : full_(full) {}

  Status Check(const Array& a, const std::string& path, int depth) {
    auto fail = [&](const std::string& what) {
      return Status::Internal("invalid array " + path + ": " + what);
    };
    if (depth > 64) return fail("nested deeper than 64 levels");
    if (a.type == nullptr) return fail("no type");
    if (depth == 0) {
      Status type_status = ValidateType(*a.type);
      if (!type_status.ok()) return fail(type_status.message());
    }
    const DataType& type = *a.type;
    if (a.length < 0 || a.offset < 0 || a.length > kMaxElements || a.offset > kMaxElements) {
      return fail("length " + std::to_string(a.length) + " or offset " + std::to_string(a.offset) +
                  " out of range");
    }
    const int64_t end = a.offset + a.length;  // slots in use
    if (a.null_count < 0 || a.null_count > a.length) {
      return fail("null_count " + std::to_string(a.null_count) + " not in [0, length " +
                  std::to_string(a.length) + "]");
    }
    const int expected_buffers = layout::BufferCount(type.id);
    if (static_cast<int64_t>(a.buffers.size()) != expected_buffers) {
      return fail("has " + std::to_string(a.buffers.size()) + " buffers, " + type.ToString() +
                  " needs " + std::to_string(expected_buffers));
    }
    size_t expected_children = type.id == TypeId::kStruct  ? type.children.size()
                               : layout::IsNested(type.id) ? 1
                                                           : 0;
    if (a.children.size() != expected_children) {
      return fail("has " + std::to_string(a.children.size()) + " children, expected " +
                  std::to_string(expected_children));
    }
    if ((a.dictionary != nullptr) != (type.id == TypeId::kDictionary)) {
      return fail(type.id == TypeId::kDictionary ? "no dictionary"
                                                 : "a dictionary without "
                                                   "a dictionary type");
    }
    if (type.id == TypeId::kNull) {
      if (a.null_count != a.length) return fail("a null array must have null_count == length");
      return Status::OK();
    }

    // Validity.
    const ArrowBuffer* validity = a.buffers[0].get();
    if (validity == nullptr) {
      if (a.null_count != 0) {
        return fail("null_count " + std::to_string(a.null_count) + " without a validity bitmap");
      }
    } else {
      PQSIFT_RETURN_IF_ERROR(CheckSize(*validity, bit_util::BytesForBits(end), 0, path));
      if (full_) {
        int64_t nulls = a.length - bit_util::CountSetBits(validity->data(), a.offset, a.length);
        if (nulls != a.null_count) {
          return fail("null_count " + std::to_string(a.null_count) + " but the bitmap has " +
                      std::to_string(nulls) + " nulls");
        }
      }
    }

    switch (type.id) {
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: return CheckBinary(a, path);
      case TypeId::kLargeList: return CheckList<int64_t>(a, path, depth);
      case TypeId::kMap: return CheckList<int32_t>(a, path, depth);
      case TypeId::kStruct: return CheckStruct(a, path, depth);
      case TypeId::kDictionary: return CheckDictionary(a, path, depth);
      default: return CheckFixedWidth(a, path);
    }
  }

 private:
  static Status CheckSize(const ArrowBuffer& buffer, int64_t needed, int index,
                          const std::string& path) {
    if (static_cast<uint64_t>(needed) > buffer.size()) {
      return Status::Internal("invalid array " + path + ": buffer " + std::to_string(index) +
                              " has " + std::to_string(buffer.size()) + " bytes, needs " +
                              std::to_string(needed));
    }
    return Status::OK();
  }

  static Status CheckFixedWidth(const Array& a, const std::string& path) {
    const int64_t end = a.offset + a.length;
    int64_t needed = a.type->id == TypeId::kBoolean
                         ? bit_util::BytesForBits(end)
                         : end * static_cast<int64_t>(layout::FixedByteWidth(*a.type));
    if (a.type->id == TypeId::kFixedSizeBinary && a.type->byte_width > 0 &&
        end > std::numeric_limits<int64_t>::max() / a.type->byte_width) {
      return Status::Internal("invalid array " + path + ": size overflows");
    }
    if (a.buffers[1] == nullptr) {
      if (needed == 0) return Status::OK();
      return Status::Internal("invalid array " + path + ": no values buffer");
    }
    return CheckSize(*a.buffers[1], needed, 1, path);
  }

  // The offsets buffer holds slots [offset, end]; returns the first and last offsets.
  template <typename O>
  static Status CheckOffsetsBuffer(const Array& a, const std::string& path, int64_t* first,
                                   int64_t* last) {
    const int64_t end = a.offset + a.length;
    if (a.buffers[1] == nullptr) {
      if (a.length == 0 && a.offset == 0) {
        *first = *last = 0;
        return Status::OK();
      }
      return Status::Internal("invalid array " + path + ": no offsets buffer");
    }
    PQSIFT_RETURN_IF_ERROR(
        CheckSize(*a.buffers[1], (end + 1) * static_cast<int64_t>(sizeof(O)), 1, path));
    const O* o = a.buffers[1]->as<O>();
    *first = o[a.offset];
    *last = o[end];
    if (*first < 0 || *last < *first) {
      return Status::Internal("invalid array " + path + ": offsets start at " +
                              std::to_string(*first) + " and end at " + std::to_string(*last));
    }
    return Status::OK();
  }

  template <typename O>
  Status CheckMonotonic(const Array& a, const std::string& path) const {
    if (!full_ || a.length == 0) return Status::OK();
    const O* o = a.buffers[1]->as<O>();
    for (int64_t i = a.offset; i < a.offset + a.length; ++i) {
      if (o[i + 1] < o[i]) {
        return Status::Internal("invalid array " + path + ": offsets decrease at element " +
                                std::to_string(i - a.offset) + " (" + std::to_string(o[i]) +
                                " then " + std::to_string(o[i + 1]) + ")");
      }
    }
    return Status::OK();
  }

  Status CheckBinary(const Array& a, const std::string& path) const {
    int64_t first = 0, last = 0;
    PQSIFT_RETURN_IF_ERROR(CheckOffsetsBuffer<int64_t>(a, path, &first, &last));
    if (a.buffers[2] == nullptr) {
      if (last != 0) return Status::Internal("invalid array " + path + ": no data buffer");
    } else {
      PQSIFT_RETURN_IF_ERROR(CheckSize(*a.buffers[2], last, 2, path));
    }
    PQSIFT_RETURN_IF_ERROR(CheckMonotonic<int64_t>(a, path));
    if (full_ && a.type->id == TypeId::kLargeString && last > 0) {
      const int64_t* o = a.buffers[1]->as<int64_t>() + a.offset;
      const char* data = a.buffers[2]->as<char>();
      for (int64_t i = 0; i < a.length; ++i) {
        if (!a.IsValid(i)) continue;
        std::string_view s(data + o[i], static_cast<size_t>(o[i + 1] - o[i]));
        if (!utf8::IsValid(s)) {
          return Status::Internal("invalid array " + path + ": element " + std::to_string(i) +
                                  " is not valid UTF-8");
        }
      }
    }
    return Status::OK();
  }

  // A non-nullable child may hold nulls only in slots no valid parent element reaches.
  Status CheckNoReachableNulls(const Array& child, int64_t child_start, int64_t child_len,
                               const std::string& path, const std::string& what) const {
    if (!full_ || child.null_count == 0) return Status::OK();
    for (int64_t j = child_start; j < child_start + child_len; ++j) {
      if (!child.IsValid(j)) {
        std::string message = "invalid array " + path;
        message += ": " + what + " is null at element " + std::to_string(j);
        return Status::Internal(message);
      }
    }
    return Status::OK();
  }

  template <typename O>
  Status CheckList(const Array& a, const std::string& path, int depth) {
    int64_t first = 0, last = 0;
    PQSIFT_RETURN_IF_ERROR(CheckOffsetsBuffer<O>(a, path, &first, &last));
    const Field& field = a.type->children[0];
    std::string child_path = path + "." + field.name;
    if (a.children[0] == nullptr)
      return Status::Internal("invalid array " + child_path + ": missing");
    const Array& child = *a.children[0];
    if (child.type == nullptr || !(*child.type == *field.type)) {
      return Status::Internal("invalid array " + child_path + ": type " +
                              (child.type ? child.type->ToString() : "<none>") +
                              " differs from the field's " + field.type->ToString());
    }
    if (child.length < last) {
      return Status::Internal("invalid array " + path + ": offsets reach " + std::to_string(last) +
                              " but the child has " + std::to_string(child.length) + " elements");
    }
    PQSIFT_RETURN_IF_ERROR(CheckMonotonic<O>(a, path));
    PQSIFT_RETURN_IF_ERROR(Check(child, child_path, depth + 1));
    // Map keys are a non-nullable field of the entries struct: its own check covers them.
    if (!full_ || field.nullable) return Status::OK();
    const O* o = layout::Offsets<O>(a) + a.offset;
    for (int64_t i = 0; i < a.length; ++i) {
      if (!a.IsValid(i) || o[i] == o[i + 1]) continue;
      PQSIFT_RETURN_IF_ERROR(
          CheckNoReachableNulls(child, o[i], o[i + 1] - o[i], path, "non-nullable " + field.name));
    }
    return Status::OK();
  }

  Status CheckStruct(const Array& a, const std::string& path, int depth) {
    const int64_t end = a.offset + a.length;
    for (size_t c = 0; c < a.children.size(); ++c) {
      const Field& field = a.type->children[c];
      std::string child_path = path + "." + field.name;
      if (a.children[c] == nullptr) {
        return Status::Internal("invalid array " + child_path + ": missing");
      }
      const Array& child = *a.children[c];
      if (child.type == nullptr || !(*child.type == *field.type)) {
        return Status::Internal("invalid array " + child_path + ": type " +
                                (child.type ? child.type->ToString() : "<none>") + " instead of " +
                                field.type->ToString());
      }
      if (child.length < end) {
        return Status::Internal("invalid array " + child_path + ": length " +
                                std::to_string(child.length) + " is less than the struct's " +
                                std::to_string(end) + " (offset + length)");
      }
      PQSIFT_RETURN_IF_ERROR(Check(child, child_path, depth + 1));
      if (full_ && !field.nullable && child.null_count > 0) {
        for (int64_t i = 0; i < a.length; ++i) {
          if (a.IsValid(i) && !child.IsValid(a.offset + i)) {
            return Status::Internal("invalid array " + child_path +
                                    ": non-nullable field is null at element " + std::to_string(i) +
                                    " of a valid struct");
          }
        }
      }
    }
    return Status::OK();
  }

  Status CheckDictionary(const Array& a, const std::string& path, int depth) {
    PQSIFT_RETURN_IF_ERROR(CheckFixedWidth(a, path));  // the indices
    const Array& dictionary = *a.dictionary;
    const std::string dictionary_path = path + ".dictionary";
    if (dictionary.type == nullptr || !(*dictionary.type == *a.type->value_type)) {
      return Status::Internal("invalid array " + dictionary_path + ": type " +
                              (dictionary.type ? dictionary.type->ToString() : "<none>") +
                              " instead of " + a.type->value_type->ToString());
    }
    PQSIFT_RETURN_IF_ERROR(Check(dictionary, dictionary_path, depth + 1));
    if (!full_) return Status::OK();
    for (int64_t i = 0; i < a.length; ++i) {
      if (!a.IsValid(i)) continue;
      const int32_t index = layout::DictionaryIndex(a, i);
      if (index < 0 || index >= dictionary.length) {
        return Status::Internal("invalid array " + path + ": element " + std::to_string(i) +
                                " has index " + std::to_string(index) +
                                " outside a dictionary of " + std::to_string(dictionary.length));
      }
    }
    return Status::OK();
  }

  bool full_;
};

}  // namespace

Status ValidateArray(const Array& array) { return Validator(true).Check(array, "array", 0); }

Status ValidateArrayLayout(const Array& array) { return Validator(false).Check(array, "array", 0); }

Status ValidateRecordBatch(const RecordBatch& batch) {
  if (batch.schema == nullptr) return Status::Internal("invalid record batch: no schema");
  if (batch.num_rows < 0) return Status::Internal("invalid record batch: negative num_rows");
  const auto& fields = batch.schema->fields;
  if (fields.size() != batch.columns.size()) {
    return Status::Internal("invalid record batch: " + std::to_string(batch.columns.size()) +
                            " columns for " + std::to_string(fields.size()) + " fields");
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const Field& field = fields[i];
    const std::string where = "column " + std::to_string(i) + " '" + field.name + "'";
    const Array* column = batch.columns[i].get();
    if (column == nullptr || field.type == nullptr) {
      return Status::Internal("invalid record batch: " + where + " is missing");
    }
    if (column->type == nullptr || !(*column->type == *field.type)) {
      return Status::Internal("invalid record batch: " + where + " has type " +
                              (column->type ? column->type->ToString() : "<none>") +
                              ", the schema says " + field.type->ToString());
    }
    if (column->length != batch.num_rows) {
      return Status::Internal("invalid record batch: " + where + " has " +
                              std::to_string(column->length) + " rows, the batch " +
                              std::to_string(batch.num_rows));
    }
    PQSIFT_RETURN_IF_ERROR(ValidateArray(*column).WithContext(where));
    if (!field.nullable && column->null_count != 0) {
      return Status::Internal("invalid record batch: " + where + " is non-nullable but has " +
                              std::to_string(column->null_count) + " nulls");
    }
  }
  return Status::OK();
}

}  // namespace pqsift
