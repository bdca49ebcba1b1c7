#include "cli/inspect_json.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "common/value_format.h"
#include "format/statistics_text.h"
#include "geo/wkb.h"

namespace pqsift::cli {
namespace {

using json = nlohmann::ordered_json;

template <typename T>
void SetIf(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

json KeyValues(const std::vector<KeyValue>& kvs) {
  json out = json::array();
  for (const KeyValue& kv : kvs) {
    json e = {{"key", FormatText(kv.key)}};
    if (kv.value) e["value"] = FormatText(*kv.value);
    out.push_back(std::move(e));
  }
  return out;
}

// A double as a JSON number, or "nan" / "inf" / "-inf" (JSON has no such numbers).
json DoubleJson(double v) {
  if (std::isfinite(v)) return v;
  return FormatDouble(v);
}

json GeoStatsJson(const GeospatialStatistics& g) {
  json out = json::object();
  if (g.bbox) {
    const BoundingBox& b = *g.bbox;
    json box = {{"xmin", DoubleJson(b.xmin)},
                {"xmax", DoubleJson(b.xmax)},
                {"ymin", DoubleJson(b.ymin)},
                {"ymax", DoubleJson(b.ymax)}};
    if (b.zmin) box["zmin"] = DoubleJson(*b.zmin);
    if (b.zmax) box["zmax"] = DoubleJson(*b.zmax);
    if (b.mmin) box["mmin"] = DoubleJson(*b.mmin);
    if (b.mmax) box["mmax"] = DoubleJson(*b.mmax);
    out["bbox"] = std::move(box);
  }
  if (g.geospatial_types) {
    out["geospatial_types"] = *g.geospatial_types;
    json names = json::array();
    for (int32_t code : *g.geospatial_types) names.push_back(geo::TypeCodeName(code));
    out["geospatial_type_names"] = std::move(names);
  }
  return out;
}

json SchemaNodeJson(const Schema& schema, int32_t index) {
  const SchemaNode& n = schema.nodes()[index];
  json j = {{"name", FormatText(n.name)}};
  if (n.repetition) j["repetition"] = RepetitionName(*n.repetition);
  if (n.physical_type) j["physical_type"] = PhysicalTypeName(*n.physical_type);
  j["logical_type"] = n.logical_type.kind == LogicalType::Kind::kNone
                          ? json(nullptr)
                          : json(LogicalTypeName(n.logical_type));
  if (n.logical_type.kind == LogicalType::Kind::kGeometry ||
      n.logical_type.kind == LogicalType::Kind::kGeography) {
    // The whole CRS (the type's name cuts a long one) and whether it was written.
    j["crs"] = n.logical_type.crs.empty() ? "OGC:CRS84" : FormatText(n.logical_type.crs);
    j["crs_written"] = !n.logical_type.crs.empty();
    if (n.logical_type.kind == LogicalType::Kind::kGeography) {
      j["edge_algorithm"] = EdgeAlgorithmName(n.logical_type.edge_algorithm.value_or(0));
    }
  }
  if (n.converted_type) j["converted_type"] = ConvertedTypeName(*n.converted_type);
  if (n.physical_type == PhysicalType::kFixedLenByteArray) j["type_length"] = n.type_length;
  SetIf(j, "field_id", n.field_id);
  if (n.is_leaf()) {
    const ColumnDescriptor& c = schema.columns()[n.column_index];
    j["path"] = FormatText(c.path);
    j["column_index"] = n.column_index;
    j["max_definition_level"] = c.max_definition_level;
    j["max_repetition_level"] = c.max_repetition_level;
  } else {
    json children = json::array();
    for (int32_t child : n.children) children.push_back(SchemaNodeJson(schema, child));
    j["children"] = std::move(children);
  }
  return j;
}

void AddBound(nlohmann::ordered_json& stats, const char* key, std::string_view bytes,
              const ColumnDescriptor& col) {
  std::optional<std::string> text = format::RenderStatisticsValue(bytes, col);
  if (text) {
    stats[key] = *text;
  } else {
    stats[key] = FormatHex({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
    stats[std::string(key) + "_invalid"] = true;
  }
}

}  // namespace

nlohmann::ordered_json StatisticsJson(const Statistics& s, const ColumnDescriptor& col) {
  using json = nlohmann::ordered_json;
  json j = json::object();
  bool has_new = s.min_value || s.max_value;
  const auto& min = has_new ? s.min_value : s.min;
  const auto& max = has_new ? s.max_value : s.max;
  if (min) AddBound(j, "min", *min, col);
  if (max) AddBound(j, "max", *max, col);
  if (min || max) j["min_max_source"] = has_new ? "min_value/max_value" : "min/max (deprecated)";
  SetIf(j, "null_count", s.null_count);
  SetIf(j, "distinct_count", s.distinct_count);
  SetIf(j, "nan_count", s.nan_count);
  SetIf(j, "is_min_value_exact", s.is_min_value_exact);
  SetIf(j, "is_max_value_exact", s.is_max_value_exact);
  return j;
}

namespace {

json ColumnChunkJson(const ColumnChunk& chunk, const ColumnDescriptor& col) {
  json j = {{"path", FormatText(col.path)}, {"physical_type", PhysicalTypeName(col.physical_type)}};
  if (chunk.file_path) j["file_path"] = FormatText(*chunk.file_path);
  if (chunk.is_encrypted) j["encrypted"] = true;
  if (chunk.meta_data) {
    const ColumnMetaData& m = *chunk.meta_data;
    j["codec"] = CodecName(m.codec);
    json encodings = json::array();
    for (Encoding e : m.encodings) encodings.push_back(EncodingName(e));
    j["encodings"] = std::move(encodings);
    if (m.encoding_stats) {
      json stats = json::array();
      for (const PageEncodingStats& s : *m.encoding_stats) {
        stats.push_back({{"page_type", PageTypeName(s.page_type)},
                         {"encoding", EncodingName(s.encoding)},
                         {"count", s.count}});
      }
      j["encoding_stats"] = std::move(stats);
    }
    j["num_values"] = m.num_values;
    j["total_compressed_size"] = m.total_compressed_size;
    j["total_uncompressed_size"] = m.total_uncompressed_size;
    j["data_page_offset"] = m.data_page_offset;
    SetIf(j, "dictionary_page_offset", m.dictionary_page_offset);
    SetIf(j, "index_page_offset", m.index_page_offset);
    if (m.statistics) j["statistics"] = StatisticsJson(*m.statistics, col);
    if (m.size_statistics) {
      const SizeStatistics& z = *m.size_statistics;
      json size = json::object();
      SetIf(size, "unencoded_byte_array_data_bytes", z.unencoded_byte_array_data_bytes);
      if (!z.repetition_level_histogram.empty()) {
        size["repetition_level_histogram"] = z.repetition_level_histogram;
      }
      if (!z.definition_level_histogram.empty()) {
        size["definition_level_histogram"] = z.definition_level_histogram;
      }
      j["size_statistics"] = std::move(size);
    }
    if (m.geospatial_statistics)
      j["geospatial_statistics"] = GeoStatsJson(*m.geospatial_statistics);
    if (!m.key_value_metadata.empty()) j["key_value_metadata"] = KeyValues(m.key_value_metadata);
  }
  SetIf(j, "column_index_offset", chunk.column_index_offset);
  SetIf(j, "column_index_length", chunk.column_index_length);
  SetIf(j, "offset_index_offset", chunk.offset_index_offset);
  SetIf(j, "offset_index_length", chunk.offset_index_length);
  if (chunk.meta_data) {
    SetIf(j, "bloom_filter_offset", chunk.meta_data->bloom_filter_offset);
    SetIf(j, "bloom_filter_length", chunk.meta_data->bloom_filter_length);
  }
  return j;
}

}  // namespace

json InspectJson(const ParquetMetadata& md) {
  const FileMetaData& f = md.file();
  const Schema& schema = md.schema();
  json j = {{"file", md.file_name()},
            {"file_size", md.file_size()},
            {"footer_length", md.footer_length()},
            {"version", f.version},
            {"num_rows", f.num_rows}};
  if (f.created_by) j["created_by"] = FormatText(*f.created_by);
  if (!f.key_value_metadata.empty()) j["key_value_metadata"] = KeyValues(f.key_value_metadata);
  j["num_columns"] = schema.num_columns();
  j["schema"] = SchemaNodeJson(schema, 0);
  json columns = json::array();
  for (const ColumnDescriptor& c : schema.columns()) {
    json cj = {{"path", FormatText(c.path)},
               {"physical_type", PhysicalTypeName(c.physical_type)},
               {"logical_type", c.logical_type.kind == LogicalType::Kind::kNone
                                    ? json(nullptr)
                                    : json(LogicalTypeName(c.logical_type))},
               {"max_definition_level", c.max_definition_level},
               {"max_repetition_level", c.max_repetition_level}};
    if (c.column_order) {
      static const char* const kOrders[] = {"UNKNOWN", "TYPE_ORDER", "IEEE_754_TOTAL_ORDER",
                                            "INT96_TIMESTAMP_ORDER"};
      cj["column_order"] = kOrders[static_cast<int>(*c.column_order)];
    }
    columns.push_back(std::move(cj));
  }
  j["columns"] = std::move(columns);
  json row_groups = json::array();
  for (size_t g = 0; g < f.row_groups.size(); ++g) {
    const RowGroup& rg = f.row_groups[g];
    json rj = {{"ordinal", g}, {"num_rows", rg.num_rows}, {"total_byte_size", rg.total_byte_size}};
    SetIf(rj, "total_compressed_size", rg.total_compressed_size);
    SetIf(rj, "file_offset", rg.file_offset);
    SetIf(rj, "footer_ordinal", rg.ordinal);
    if (rg.sorting_columns) {
      json sc = json::array();
      for (const SortingColumn& s : *rg.sorting_columns) {
        sc.push_back({{"column_idx", s.column_idx},
                      {"descending", s.descending},
                      {"nulls_first", s.nulls_first}});
      }
      rj["sorting_columns"] = std::move(sc);
    }
    json chunks = json::array();
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      chunks.push_back(ColumnChunkJson(rg.columns[c], schema.columns()[c]));
    }
    rj["columns"] = std::move(chunks);
    row_groups.push_back(std::move(rj));
  }
  j["row_groups"] = std::move(row_groups);
  return j;
}

}  // namespace pqsift::cli
