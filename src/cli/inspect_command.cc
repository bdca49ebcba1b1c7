// `pqsift inspect FILE...`: what a file's footer says, for people (a tree and tables) or for
// programs (--json, the format in docs/inspect-json.md). Both views come from one JSON value
// built from the metadata, so they cannot disagree.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/inspect.h"
#include "cli/text_table.h"
#include "common/value_format.h"
#include "format/chunk_readable.h"
#include "format/statistics_text.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

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

json SchemaNodeJson(const Schema& schema, int32_t index) {
  const SchemaNode& n = schema.nodes()[index];
  json j = {{"name", FormatText(n.name)}};
  if (n.repetition) j["repetition"] = RepetitionName(*n.repetition);
  if (n.physical_type) j["physical_type"] = PhysicalTypeName(*n.physical_type);
  j["logical_type"] = n.logical_type.kind == LogicalType::Kind::kNone
                          ? json(nullptr)
                          : json(LogicalTypeName(n.logical_type));
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

std::string ExactnessText(const nlohmann::ordered_json& stats) {
  auto flag = [&](const char* key) {
    auto it = stats.find(key);
    return it == stats.end() ? std::string("?") : it->dump();
  };
  if (!stats.contains("is_min_value_exact") && !stats.contains("is_max_value_exact")) return "";
  return flag("is_min_value_exact") + "/" + flag("is_max_value_exact");
}

std::string ClipCell(const std::string& s) { return s.size() > 32 ? s.substr(0, 29) + "..." : s; }

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

// ---- the human view, rendered from the JSON value ----

std::string Get(const json& j, const char* key, const std::string& fallback = "") {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string HumanBytes(uint64_t n) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

void PrintSchemaTree(std::ostream& out, const json& node, const std::string& prefix, bool last,
                     bool root) {
  std::string type;
  if (node.contains("physical_type")) {
    type = Get(node, "physical_type");
    if (node.contains("type_length")) type += "(" + Get(node, "type_length") + ")";
  }
  std::string logical = Get(node, "logical_type");
  if (!logical.empty()) type += type.empty() ? logical : " " + logical;
  std::string rep = Get(node, "repetition");
  out << prefix << (root ? "" : (last ? "└─ " : "├─ ")) << Get(node, "name");
  if (!type.empty()) out << ": " << type;
  if (!rep.empty()) out << "  " << rep;
  out << '\n';
  if (!node.contains("children")) return;
  const json& children = node["children"];
  std::string child_prefix = root ? prefix : prefix + (last ? "   " : "│  ");
  for (size_t i = 0; i < children.size(); ++i) {
    PrintSchemaTree(out, children[i], child_prefix, i + 1 == children.size(), false);
  }
}

std::string Join(const json& arr) {
  std::string s;
  for (const auto& e : arr) s += (s.empty() ? "" : ",") + e.get<std::string>();
  return s;
}

void PrintHuman(std::ostream& out, const json& j) {
  out << "file:        " << Get(j, "file") << '\n'
      << "size:        " << HumanBytes(j["file_size"].get<uint64_t>()) << " ("
      << Get(j, "file_size") << " bytes; footer " << Get(j, "footer_length") << " bytes)\n"
      << "created by:  " << Get(j, "created_by", "(not set)") << '\n'
      << "rows:        " << Get(j, "num_rows") << " in " << j["row_groups"].size()
      << " row group(s)\n"
      << "columns:     " << Get(j, "num_columns") << " leaf column(s)\n";
  if (j.contains("key_value_metadata")) {
    out << "metadata:    ";
    for (const auto& kv : j["key_value_metadata"]) {
      std::string value = Get(kv, "value");
      if (value.size() > 60) value = value.substr(0, 57) + "...";
      out << Get(kv, "key") << "=" << value << "  ";
    }
    out << '\n';
  }
  out << "\nschema:\n";
  PrintSchemaTree(out, j["schema"], "  ", true, true);
  for (const auto& rg : j["row_groups"]) {
    out << "\nrow group " << Get(rg, "ordinal") << ": " << Get(rg, "num_rows") << " rows, "
        << HumanBytes(rg["total_byte_size"].get<uint64_t>()) << " uncompressed";
    if (rg.contains("sorting_columns")) out << ", sorted";
    out << '\n';
    TextTable table({"column", "codec", "encodings", "compressed", "uncompressed", "min", "max",
                     "nulls", "exact", "page index", "bloom"});
    for (const auto& c : rg["columns"]) {
      const json stats = c.contains("statistics") ? c["statistics"] : json::object();
      std::string exact = ExactnessText(stats);
      std::string page_index = c.contains("column_index_offset")   ? "CI+OI"
                               : c.contains("offset_index_offset") ? "OI"
                                                                   : "no";
      if (c.contains("column_index_offset") && !c.contains("offset_index_offset"))
        page_index = "CI";
      table.AddRow(
          {Get(c, "path"), Get(c, "codec"), c.contains("encodings") ? Join(c["encodings"]) : "",
           c.contains("total_compressed_size")
               ? HumanBytes(c["total_compressed_size"].get<uint64_t>())
               : "",
           c.contains("total_uncompressed_size")
               ? HumanBytes(c["total_uncompressed_size"].get<uint64_t>())
               : "",
           ClipCell(Get(stats, "min")), ClipCell(Get(stats, "max")), Get(stats, "null_count", "?"),
           exact, page_index, c.contains("bloom_filter_offset") ? "yes" : "no"});
    }
    table.Print(out, "  ");
    // SizeStatistics (Arrow C++ writes them by default): only for the chunks that have them.
    bool size_header = false;
    for (const auto& c : rg["columns"]) {
      if (!c.contains("size_statistics") || c["size_statistics"].empty()) continue;
      if (!size_header) out << "  size statistics:\n";
      size_header = true;
      const json& z = c["size_statistics"];
      out << "    " << Get(c, "path") << ":";
      if (z.contains("unencoded_byte_array_data_bytes")) {
        out << " unencoded byte array data "
            << HumanBytes(z["unencoded_byte_array_data_bytes"].get<uint64_t>());
      }
      if (z.contains("definition_level_histogram")) {
        out << " def levels " << z["definition_level_histogram"].dump();
      }
      if (z.contains("repetition_level_histogram")) {
        out << " rep levels " << z["repetition_level_histogram"].dump();
      }
      out << '\n';
    }
    std::vector<std::string> encrypted;
    for (const auto& c : rg["columns"]) {
      if (c.contains("encrypted")) encrypted.push_back(Get(c, "path"));
    }
    if (!encrypted.empty()) {
      out << "  " << (encrypted.size() == 1 ? "column " : "columns ");
      for (size_t i = 0; i < encrypted.size(); ++i) {
        out << (i > 0 ? ", '" : "'") << encrypted[i] << "'";
      }
      out << (encrypted.size() == 1 ? " is " : " are ") << format::kEncryptedColumnNote << '\n';
    }
  }
}

int RunInspect(const std::vector<std::string>& files, bool as_json, const KeyArgs& key_args,
               const StorageArgs& storage_args) {
  int exit_code = 0;
  json all = json::array();
  OpenOptions open;
  auto keys = MakeDecryptionOptions(key_args);
  if (!keys.ok()) return ReportError(keys.status());
  open.decryption = *keys;
  std::shared_ptr<Storage> storage = MakeStorage(storage_args);
  for (const std::string& path : files) {
    FileOpenOptions tail;
    tail.tail_bytes = open.tail_bytes;
    Result<std::unique_ptr<RandomAccessFile>> file = storage->Open(path, tail);
    Result<std::shared_ptr<const ParquetMetadata>> md =
        file.ok() ? ReadParquetMetadata(**file, open)
                  : Result<std::shared_ptr<const ParquetMetadata>>(file.status());
    if (!md.ok()) {
      exit_code = ReportError(md.status());
      continue;
    }
    json j = InspectJson(**md);
    if (as_json) {
      all.push_back(std::move(j));
    } else {
      if (&path != &files.front()) std::cout << '\n';
      PrintHuman(std::cout, j);
    }
  }
  if (as_json && !all.empty()) {
    // One file: the object itself; several: an array of them, in argument order.
    std::cout
        << (files.size() == 1 ? all[0] : all).dump(2, ' ', false, json::error_handler_t::replace)
        << '\n';
  }
  return exit_code;
}

}  // namespace

Command AddInspectCommand(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "inspect",
      "Show what a Parquet file's footer says: schema, row groups, column chunks, "
      "statistics, page index and bloom filter locations; with --pages, every page's header.");
  auto args = std::make_shared<InspectPagesArgs>();
  auto pages = std::make_shared<bool>(false);
  sub->add_option("FILE", args->files, "Parquet files to inspect")->required();
  sub->add_flag("--json", args->as_json,
                "Print JSON (one object, or an array for several files; see docs/inspect-json.md)");
  CLI::Option* pages_flag = sub->add_flag(
      "--pages", *pages,
      "List every page of every column chunk from its header (offset, type, encoding, values, "
      "rows, sizes, header statistics, CRC, offset index entry); nothing is decompressed");
  sub->add_option("--row-group", args->row_group, "With --pages: only this row group (from 0)")
      ->needs(pages_flag);
  sub->add_option("--column", args->column, "With --pages: only this leaf column (dotted path)")
      ->needs(pages_flag);
  AddKeyOptions(sub, args->keys);
  AddStorageOptions(sub, args->storage);
  return {sub, [args, pages] {
            return *pages ? RunInspectPages(*args)
                          : RunInspect(args->files, args->as_json, args->keys, args->storage);
          }};
}

}  // namespace pqsift::cli
