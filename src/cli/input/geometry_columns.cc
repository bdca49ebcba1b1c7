// Columns converted to GEOMETRY on their way to the writer (geometry_columns.h).
#include "cli/input/geometry_columns.h"

#include <span>

#include "arrow/bit_util.h"
#include "arrow/builder.h"
#include "arrow/layout.h"
#include "geo/geoarrow.h"
#include "geo/wkb.h"
#include "geo/wkt.h"

namespace pqsift::cli {
namespace {

class GeometryReader final : public BatchReader {
 public:
  GeometryReader(std::unique_ptr<BatchReader> input, std::vector<int> columns,
                 std::shared_ptr<const BatchSchema> schema)
      : input_(std::move(input)), columns_(std::move(columns)), schema_(std::move(schema)) {}

  std::shared_ptr<const BatchSchema> schema() const override { return schema_; }

  Result<std::shared_ptr<RecordBatch>> Next() override {
    PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, input_->Next());
    if (batch == nullptr) return batch;
    auto out = std::make_shared<RecordBatch>(*batch);
    out->schema = schema_;
    for (int c : columns_) {
      PQSIFT_ASSIGN_OR_RETURN(out->columns[c],
                              Convert(*batch->columns[c], schema_->fields[c], rows_));
    }
    rows_ += batch->num_rows;
    return out;
  }

 private:
  static Result<std::shared_ptr<Array>> Convert(const Array& a, const Field& field,
                                                int64_t first_row) {
    BinaryArrayBuilder builder(field.type);
    const int64_t* offsets = layout::Offsets<int64_t>(a);
    const char* data = a.buffers[2] ? a.buffers[2]->as<char>() : nullptr;
    const bool text = a.type->id == TypeId::kLargeString;
    const uint8_t* validity = a.buffers.empty() || !a.buffers[0] ? nullptr : a.buffers[0]->data();
    std::string wkb;
    for (int64_t i = 0; i < a.length; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, a.offset + i)) {
        builder.AppendNull();
        continue;
      }
      const int64_t slot = a.offset + i;
      std::string_view v(data + offsets[slot],
                         static_cast<size_t>(offsets[slot + 1] - offsets[slot]));
      Status st;
      if (text) {
        wkb.clear();
        st = geo::AppendWkbFromWkt(v, wkb);
        v = wkb;
      } else {
        std::string ignored;
        st = geo::AppendWkt({reinterpret_cast<const uint8_t*>(v.data()), v.size()}, ignored);
      }
      if (!st.ok()) {
        return st.WithContext("--geometry column '" + field.name + "' row " +
                              std::to_string(first_row + i + 1));
      }
      builder.Append(v);
    }
    return builder.Finish();
  }

  std::unique_ptr<BatchReader> input_;
  std::vector<int> columns_;
  std::shared_ptr<const BatchSchema> schema_;
  int64_t rows_ = 0;
};

}  // namespace

Result<std::unique_ptr<BatchReader>> WithGeometryColumns(std::unique_ptr<BatchReader> input,
                                                         const std::vector<std::string>& names) {
  if (names.empty()) return input;
  auto schema = std::make_shared<BatchSchema>(*input->schema());
  std::vector<int> columns;
  for (const std::string& name : names) {
    int found = -1;
    for (size_t c = 0; c < schema->fields.size(); ++c) {
      if (schema->fields[c].name == name) found = static_cast<int>(c);
    }
    if (found < 0)
      return Status::InvalidArgument("--geometry: the input has no column '" + name + "'");
    Field& f = schema->fields[found];
    if (f.type->extension_name == geo::kGeoArrowWkb) continue;  // already GEOMETRY
    if (f.type->id != TypeId::kLargeString && f.type->id != TypeId::kLargeBinary) {
      return Status::InvalidArgument("--geometry: column '" + name + "' is " + f.type->ToString() +
                                     ", not WKT text or WKB binary");
    }
    auto type = std::make_shared<DataType>(*LargeBinary());
    type->extension_name = std::string(geo::kGeoArrowWkb);
    type->extension_metadata = geo::GeoArrowMetadata({}, std::nullopt);
    f.type = std::move(type);
    columns.push_back(found);
  }
  return std::unique_ptr<BatchReader>(
      std::make_unique<GeometryReader>(std::move(input), std::move(columns), std::move(schema)));
}

}  // namespace pqsift::cli
