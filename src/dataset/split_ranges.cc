// SplitColumnRanges (pqsift/dataset.h): per split, the bounds of one column over the row groups
// the split covers, from footer statistics under the trust rules (prune/statistics.h), as
// one-element arrays of the column's Arrow type.
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "column/arrow_type.h"
#include "dataset/splits.h"
#include "expr/value.h"
#include "pqsift/dataset.h"
#include "pqsift/io.h"
#include "prune/statistics.h"

namespace pqsift {
namespace {

std::shared_ptr<ArrowBuffer> BufferOf(const void* bytes, size_t n) {
  auto buffer = std::make_shared<ArrowBuffer>();
  buffer->Append(bytes, n);
  return buffer;
}

template <typename T>
std::shared_ptr<ArrowBuffer> Scalar(T v) {
  return BufferOf(&v, sizeof v);
}

// `v` as a one-element array of `type`; null when the type has no exact form for it here.
std::shared_ptr<Array> ArrayOfValue(const std::shared_ptr<const DataType>& type,
                                    const expr::Value& v) {
  auto out = std::make_shared<Array>();
  out->type = type;
  out->length = 1;
  std::shared_ptr<ArrowBuffer> values;
  switch (type->id) {
    case TypeId::kBoolean: values = Scalar<uint8_t>(v.b ? 1 : 0); break;
    case TypeId::kInt8: values = Scalar(static_cast<int8_t>(v.i)); break;
    case TypeId::kInt16: values = Scalar(static_cast<int16_t>(v.i)); break;
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: values = Scalar(static_cast<int32_t>(v.i)); break;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: values = Scalar(static_cast<int64_t>(v.i)); break;
    case TypeId::kUInt8: values = Scalar(static_cast<uint8_t>(v.i)); break;
    case TypeId::kUInt16: values = Scalar(static_cast<uint16_t>(v.i)); break;
    case TypeId::kUInt32: values = Scalar(static_cast<uint32_t>(v.i)); break;
    case TypeId::kUInt64: values = Scalar(static_cast<uint64_t>(v.i)); break;
    case TypeId::kFloat32: values = Scalar(static_cast<float>(v.f)); break;
    case TypeId::kFloat64: values = Scalar(v.f); break;
    case TypeId::kDecimal128: values = Scalar(v.i); break;
    case TypeId::kFixedSizeBinary:
      if (v.bytes.size() != static_cast<size_t>(type->byte_width)) return nullptr;
      values = BufferOf(v.bytes.data(), v.bytes.size());
      break;
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      int64_t offsets[2] = {0, static_cast<int64_t>(v.bytes.size())};
      out->buffers = {nullptr, BufferOf(offsets, sizeof offsets),
                      BufferOf(v.bytes.data(), v.bytes.size())};
      return out;
    }
    default: return nullptr;  // float16 and nested types have no bounds here
  }
  out->buffers = {nullptr, std::move(values)};
  return out;
}

bool SameKind(const std::optional<expr::Value>& v, expr::Value::Kind kind) {
  return v && v->kind == kind;
}

}  // namespace

Result<std::vector<ColumnRange>> SplitColumnRanges(const std::vector<Split>& splits,
                                                   const std::string& column,
                                                   const OpenOptions& open) {
  std::map<std::string, std::shared_ptr<const ParquetMetadata>> footers;  // per path, read once
  std::vector<ColumnRange> out;
  for (const Split& split : splits) {
    std::shared_ptr<const ParquetMetadata>& md = footers[split.path];
    if (!md) {
      PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, OpenLocalFile(split.path));
      PQSIFT_ASSIGN_OR_RETURN(md, ReadParquetMetadata(*file, open));
    }
    const ColumnDescriptor* leaf = md->schema().FindColumn(column);
    if (leaf == nullptr) {
      return Status::InvalidArgument(split.path + ": no leaf column '" + column + "'");
    }
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const DataType> type, column::ArrowTypeForLeaf(*leaf));
    PQSIFT_ASSIGN_OR_RETURN(std::vector<uint8_t> excluded, dataset::ExcludedBySplit(*md, split));
    std::optional<expr::Value> min, max;
    bool bounded = true;
    bool any = false;
    ColumnRange range;
    range.may_have_nulls = false;
    for (size_t g = 0; g < excluded.size(); ++g) {
      if (excluded[g]) continue;
      const RowGroup& rg = md->file().row_groups[g];
      const size_t c = static_cast<size_t>(md->schema().nodes()[leaf->node].column_index);
      prune::ColumnBounds b;
      b.num_rows = rg.num_rows;
      if (c < rg.columns.size() && rg.columns[c].meta_data) {
        b = prune::BoundsFromChunk(*leaf, *type, *rg.columns[c].meta_data, rg.num_rows);
      } else {
        b = prune::BoundsFromStatistics(*leaf, *type, std::nullopt, rg.num_rows);
      }
      if (!b.null_count || *b.null_count > 0) range.may_have_nulls = true;
      if (rg.num_rows == 0) continue;
      if (!b.min || !b.max || b.may_contain_nan) {
        bounded = false;
        continue;
      }
      if (!any) {
        min = b.min;
        max = b.max;
        any = true;
        continue;
      }
      if (!SameKind(min, b.min->kind) || !SameKind(max, b.max->kind)) {
        bounded = false;
        continue;
      }
      if (expr::Compare(*b.min, *min) < 0) min = b.min;
      if (expr::Compare(*b.max, *max) > 0) max = b.max;
    }
    if (bounded && any) {
      range.min = ArrayOfValue(type, *min);
      range.max = ArrayOfValue(type, *max);
      if (!range.min || !range.max) range.min = range.max = nullptr;
    }
    out.push_back(std::move(range));
  }
  return out;
}

}  // namespace pqsift
