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
#include "format/chunk_readable.h"
#include "format/footer_wave.h"
#include "io/open_files.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

namespace pqsift::cli {

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

using json = nlohmann::ordered_json;

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
    // GeospatialStatistics of GEOMETRY/GEOGRAPHY chunks.
    bool geo_header = false;
    for (const auto& c : rg["columns"]) {
      if (!c.contains("geospatial_statistics")) continue;
      if (!geo_header) out << "  geospatial statistics:\n";
      geo_header = true;
      const json& g = c["geospatial_statistics"];
      out << "    " << Get(c, "path") << ":";
      if (g.contains("bbox")) {
        const json& b = g["bbox"];
        auto axis = [&](const char* name, const char* lo, const char* hi) {
          if (!b.contains(lo) && !b.contains(hi)) return;
          out << ' ' << name << " [" << (b.contains(lo) ? b[lo].dump() : "?") << ", "
              << (b.contains(hi) ? b[hi].dump() : "?") << ']';
        };
        out << " bbox";
        axis("x", "xmin", "xmax");
        axis("y", "ymin", "ymax");
        axis("z", "zmin", "zmax");
        axis("m", "mmin", "mmax");
        if (b["xmin"].is_number() && b["xmax"].is_number() &&
            b["xmin"].get<double>() > b["xmax"].get<double>()) {
          out << " (x wraps the antimeridian)";
        }
      } else {
        out << " no bbox";
      }
      if (g.contains("geospatial_type_names")) {
        out << " types "
            << (g["geospatial_type_names"].empty() ? "unknown" : Join(g["geospatial_type_names"]));
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
  open.storage = MakeStorage(storage_args);
  // Every file opened in one wave and the footers larger than the tail read fetched in one
  // more (remote stores: side by side, not a round trip or two per file); each file's error
  // is its own.
  std::vector<FileInfo> infos;
  infos.reserve(files.size());
  for (const std::string& path : files) infos.push_back(FileInfo{path, 0, 0, "", false});
  std::vector<Result<std::unique_ptr<RandomAccessFile>>> opened =
      io::TryOpenFiles(infos, open, nullptr, false);
  std::vector<const RandomAccessFile*> handles;
  handles.reserve(opened.size());
  for (const auto& file : opened) handles.push_back(file.ok() ? file->get() : nullptr);
  std::vector<Result<std::shared_ptr<const ParquetMetadata>>> footers =
      format::ReadFooters(handles, open);
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& path = files[i];
    // A file that failed to open reports why it did.
    const Result<std::shared_ptr<const ParquetMetadata>>& md =
        opened[i].ok() ? footers[i]
                       : Result<std::shared_ptr<const ParquetMetadata>>(opened[i].status());
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
