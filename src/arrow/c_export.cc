// Export to the Arrow C Data Interface: ArrowSchema / ArrowArray trees that share pqsift's
// buffers. Each exported struct (children included) has its own private data so a consumer
// can move any child out and release it separately, as the spec allows.
// A dictionary array is exported as the spec lays it out: the indices' format ("i") and
// buffers, and the `dictionary` member pointing at the values (an ArrowSchema of the value type,
// an ArrowArray of the dictionary), owned and released like a child.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrow/layout.h"
#include "pqsift/arrow_export.h"

namespace pqsift {
namespace {

// Where zero-byte buffers point: never NULL for consumers that dereference it, and zeros so
// that it also serves as the single 0 offset of an empty array without an offsets buffer.
alignas(64) const uint8_t kEmptyBuffer[64] = {};

// ---- schema ----

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;               // the C Data Interface key/value encoding; empty for none
  std::vector<ArrowSchema> children;  // sized once; the parent's pointers point here
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;  // a dictionary type's value type
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* p = static_cast<SchemaPrivate*>(schema->private_data);
  for (ArrowSchema& child : p->children) {
    if (child.release != nullptr) child.release(&child);  // not moved out by the consumer
  }
  if (p->dictionary && p->dictionary->release != nullptr) {
    p->dictionary->release(p->dictionary.get());  // not moved out by the consumer
  }
  delete p;
  schema->release = nullptr;
}

// REQUIRES: ValidateType accepted every type below `type`.
void FillSchema(std::string name, const DataType& type, bool nullable, ArrowSchema* out) {
  auto* p = new SchemaPrivate;
  p->format = layout::FormatString(type);
  p->name = std::move(name);
  p->children.resize(type.children.size());
  p->child_pointers.resize(type.children.size());
  for (size_t i = 0; i < type.children.size(); ++i) {
    const Field& child = type.children[i];
    FillSchema(child.name, *child.type, child.nullable, &p->children[i]);
    p->child_pointers[i] = &p->children[i];
  }
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  if (!type.extension_name.empty()) {
    // int32 pair count, then per pair int32 length + key, int32 length + value (native order).
    auto put = [&](std::string_view bytes) {
      const auto n = static_cast<int32_t>(bytes.size());
      p->metadata.append(reinterpret_cast<const char*>(&n), sizeof(n));
      p->metadata.append(bytes);
    };
    const int32_t pairs = 2;
    p->metadata.append(reinterpret_cast<const char*>(&pairs), sizeof(pairs));
    put("ARROW:extension:name");
    put(type.extension_name);
    put("ARROW:extension:metadata");
    put(type.extension_metadata);
  }
  out->metadata = p->metadata.empty() ? nullptr : p->metadata.data();
  out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  out->n_children = static_cast<int64_t>(type.children.size());
  out->children = p->child_pointers.empty() ? nullptr : p->child_pointers.data();
  out->dictionary = nullptr;
  if (type.id == TypeId::kDictionary) {
    // The dictionary's own nullability is not part of the type; its values may hold NULLs.
    p->dictionary = std::make_unique<ArrowSchema>();
    FillSchema("", *type.value_type, true, p->dictionary.get());
    out->dictionary = p->dictionary.get();
  }
  out->release = &ReleaseSchema;
  out->private_data = p;
}

// ---- array ----

struct ArrayPrivate {
  std::shared_ptr<Array> array;  // keeps the buffers alive; null for a record batch's struct
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;  // sized once; the parent's pointers point here
  std::vector<ArrowArray*> child_pointers;
  std::unique_ptr<ArrowArray> dictionary;  // a dictionary array's values
};

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* p = static_cast<ArrayPrivate*>(array->private_data);
  for (ArrowArray& child : p->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (p->dictionary && p->dictionary->release != nullptr) {
    p->dictionary->release(p->dictionary.get());  // not moved out by the consumer
  }
  delete p;
  array->release = nullptr;
}

const void* BufferAddress(const std::shared_ptr<ArrowBuffer>& buffer, bool is_validity) {
  if (buffer == nullptr) return is_validity ? nullptr : kEmptyBuffer;
  if (buffer->data() == nullptr || buffer->size() == 0) return kEmptyBuffer;
  return buffer->data();
}

void FillArray(ArrayPrivate* p, int64_t length, int64_t null_count, int64_t offset,
               const std::vector<std::shared_ptr<Array>>& children, ArrowArray* out);

// REQUIRES: ValidateArrayLayout accepted `array`.
void FillArray(const std::shared_ptr<Array>& array, ArrowArray* out) {
  auto* p = new ArrayPrivate;
  p->array = array;
  p->buffers.reserve(std::max<size_t>(1, array->buffers.size()));  // never a NULL pointer
  for (size_t i = 0; i < array->buffers.size(); ++i) {
    p->buffers.push_back(BufferAddress(array->buffers[i], i == 0));
  }
  FillArray(p, array->length, array->null_count, array->offset, array->children, out);
  if (array->dictionary != nullptr) {
    p->dictionary = std::make_unique<ArrowArray>();
    FillArray(array->dictionary, p->dictionary.get());
    out->dictionary = p->dictionary.get();
  }
}

void FillArray(ArrayPrivate* p, int64_t length, int64_t null_count, int64_t offset,
               const std::vector<std::shared_ptr<Array>>& children, ArrowArray* out) {
  p->children.resize(children.size());
  p->child_pointers.resize(children.size());
  for (size_t i = 0; i < children.size(); ++i) {
    FillArray(children[i], &p->children[i]);
    p->child_pointers[i] = &p->children[i];
  }
  out->length = length;
  out->null_count = null_count;
  out->offset = offset;
  out->n_buffers = static_cast<int64_t>(p->buffers.size());
  out->n_children = static_cast<int64_t>(children.size());
  out->buffers = p->buffers.data();
  out->children = p->child_pointers.empty() ? nullptr : p->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &ReleaseArray;
  out->private_data = p;
}

void MarkReleased(ArrowSchema* out) {
  if (out != nullptr) out->release = nullptr;
}
void MarkReleased(ArrowArray* out) {
  if (out != nullptr) out->release = nullptr;
}

}  // namespace

Status ExportType(const Field& field, ArrowSchema* out) {
  if (out == nullptr) return Status::InvalidArgument("ExportType: null output");
  MarkReleased(out);
  if (field.type == nullptr) {
    return Status::InvalidArgument("ExportType: field '" + field.name + "' has no type");
  }
  PQSIFT_RETURN_IF_ERROR(ValidateType(*field.type).WithContext("field '" + field.name + "'"));
  FillSchema(field.name, *field.type, field.nullable, out);
  return Status::OK();
}

Status ExportSchema(const BatchSchema& schema, ArrowSchema* out) {
  if (out == nullptr) return Status::InvalidArgument("ExportSchema: null output");
  MarkReleased(out);
  for (const Field& f : schema.fields) {
    if (f.type == nullptr) {
      return Status::InvalidArgument("ExportSchema: field '" + f.name + "' has no type");
    }
  }
  DataType root;
  root.id = TypeId::kStruct;
  root.children = schema.fields;
  PQSIFT_RETURN_IF_ERROR(ValidateType(root).WithContext("schema"));
  FillSchema("", root, false, out);
  return Status::OK();
}

Status ExportArray(const std::shared_ptr<Array>& array, ArrowArray* out) {
  if (out == nullptr) return Status::InvalidArgument("ExportArray: null output");
  MarkReleased(out);
  if (array == nullptr) return Status::InvalidArgument("ExportArray: null array");
  Status status = ValidateArrayLayout(*array);
  if (!status.ok()) return Status::InvalidArgument("ExportArray: " + status.message());
  FillArray(array, out);
  return Status::OK();
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out_array, ArrowSchema* out_schema) {
  if (out_array == nullptr) return Status::InvalidArgument("ExportRecordBatch: null output");
  MarkReleased(out_array);
  MarkReleased(out_schema);
  if (batch.schema == nullptr) return Status::InvalidArgument("ExportRecordBatch: no schema");
  const auto& fields = batch.schema->fields;
  if (fields.size() != batch.columns.size()) {
    return Status::InvalidArgument("ExportRecordBatch: " + std::to_string(batch.columns.size()) +
                                   " columns for " + std::to_string(fields.size()) + " fields");
  }
  if (batch.num_rows < 0) return Status::InvalidArgument("ExportRecordBatch: negative num_rows");
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::shared_ptr<Array>& column = batch.columns[i];
    std::string where =
        "ExportRecordBatch: column " + std::to_string(i) + " '" + fields[i].name + "'";
    if (column == nullptr || column->type == nullptr || fields[i].type == nullptr ||
        !(*column->type == *fields[i].type)) {
      return Status::InvalidArgument(where + " is missing or its type differs from the schema");
    }
    if (column->length != batch.num_rows) {
      return Status::InvalidArgument(where + " has " + std::to_string(column->length) +
                                     " rows, the batch " + std::to_string(batch.num_rows));
    }
    Status status = ValidateArrayLayout(*column);
    if (!status.ok()) return Status::InvalidArgument(where + ": " + status.message());
  }
  if (out_schema != nullptr) PQSIFT_RETURN_IF_ERROR(ExportSchema(*batch.schema, out_schema));
  auto* p = new ArrayPrivate;
  p->buffers.push_back(nullptr);  // struct validity: no nulls
  FillArray(p, batch.num_rows, 0, 0, batch.columns, out_array);
  return Status::OK();
}

}  // namespace pqsift
