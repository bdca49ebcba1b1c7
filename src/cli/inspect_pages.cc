// `pqsift inspect --pages FILE... [--row-group N] [--column PATH] [--json]`: every page of the
// selected column chunks, from its header alone (column::ReadPageDirectory: bounded reads of
// the headers, nothing decompressed), matched against the chunk's offset index when the file
// has one. Like `inspect`, one JSON value is built (docs/inspect-json.md, "--pages") and the
// text view is rendered from it, so the two cannot disagree.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/inspect.h"
#include "cli/text_table.h"
#include "column/leaf_reader.h"
#include "column/page_directory.h"
#include "common/value_format.h"
#include "format/page_index_store.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

namespace pqsift::cli {
namespace {

using json = nlohmann::ordered_json;

// "row group 2, column 'a.b'" and the like: where a chunk's errors happen.
std::string ChunkWhere(const ParquetMetadata& md, size_t g, const ColumnDescriptor& col) {
  return md.file_name() + ": row group " + std::to_string(g) + ", column '" + col.path + "'";
}

json PageJson(const column::PageInfo& p, const ColumnDescriptor& col) {
  json j = {
      {"offset", p.offset}, {"header_size", p.header_size}, {"page_type", PageTypeName(p.type)}};
  if (p.encoding) j["encoding"] = EncodingName(*p.encoding);
  if (p.num_values >= 0) j["num_values"] = p.num_values;
  if (p.is_data_page()) {
    // Rows: the header's (v2, or v1 in a flat column), else the offset index's.
    const column::OffsetIndexEntry* oi = p.offset_index ? &*p.offset_index : nullptr;
    if (p.first_row >= 0) {
      j["first_row"] = p.first_row;
    } else if (oi) {
      j["first_row"] = oi->first_row;
    }
    if (p.num_rows >= 0) {
      j["num_rows"] = p.num_rows;
      j["num_rows_source"] = "header";
    } else if (oi && oi->num_rows >= 0) {
      j["num_rows"] = oi->num_rows;
      j["num_rows_source"] = "offset_index";
    }
  }
  if (p.num_nulls >= 0) j["num_nulls"] = p.num_nulls;
  j["compressed_page_size"] = p.compressed_size;
  j["uncompressed_page_size"] = p.uncompressed_size;
  j["crc"] = p.crc.has_value();
  if (p.dictionary_is_sorted) j["is_sorted"] = *p.dictionary_is_sorted;
  if (p.type == PageType::kDataPageV2) {
    j["definition_levels_byte_length"] = p.v2_definition_levels_bytes;
    j["repetition_levels_byte_length"] = p.v2_repetition_levels_bytes;
    j["is_compressed"] = p.v2_is_compressed;
  }
  if (p.statistics) j["statistics"] = StatisticsJson(*p.statistics, col);
  if (p.offset_index) {
    j["offset_index"] = {{"entry", p.offset_index->entry},
                         {"first_row_index", p.offset_index->first_row},
                         {"size_matches", p.offset_index->size_matches}};
  }
  return j;
}

// One chunk's listing; `*error` is set when the walk stopped (the pages before stay listed).
json ChunkPagesJson(const RandomAccessFile& file, const ParquetMetadata& md,
                    const format::PageIndexStore& indexes, size_t g, int32_t leaf, Status* error) {
  const RowGroup& rg = md.file().row_groups[g];
  const ColumnChunk& chunk = rg.columns[static_cast<size_t>(leaf)];
  const ColumnDescriptor& col = md.schema().columns()[static_cast<size_t>(leaf)];
  std::string where = ChunkWhere(md, g, col);
  json j = {{"path", FormatText(col.path)},
            {"column_index", leaf},
            {"physical_type", PhysicalTypeName(col.physical_type)}};
  if (!chunk.meta_data || chunk.file_path) {
    *error = Status::NotSupported(
        where + (chunk.meta_data ? ": the chunk is in another file" : ": the chunk is encrypted"));
    j["error"] = error->message();
    return j;
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  j["codec"] = CodecName(meta.codec);
  Result<ByteRange> range = column::ColumnChunkRange(meta, md.file_size(), where);
  if (!range.ok()) {
    *error = range.status();
    j["error"] = error->message();
    return j;
  }
  j["offset"] = range->offset;
  j["length"] = range->length;
  const format::OffsetIndex* oi = indexes.offset_index(g, leaf);
  j["offset_index"] = oi ? "present" : chunk.offset_index_offset ? "unusable" : "absent";
  column::PageDirectory dir;
  *error = column::ReadPageDirectory(file, *range, col.max_repetition_level == 0, where, dir);
  // Where the listing ends: the chunk's end, or the bad page's offset.
  uint64_t walked_end = dir.pages().empty() ? range->offset : dir.pages().back().end();
  std::vector<size_t> unmatched;
  if (oi) {
    for (size_t e : column::MatchOffsetIndex(*oi, rg.num_rows, dir)) {
      // Entries past a stop are not compared: the pages there were not walked.
      auto at = oi->page_locations[e].offset;
      if (error->ok() || (at >= 0 && static_cast<uint64_t>(at) < walked_end))
        unmatched.push_back(e);
    }
  }
  j["num_pages"] = dir.pages().size();
  int64_t rows = dir.num_rows();
  if (rows >= 0 && error->ok()) j["num_rows"] = rows;
  json pages = json::array();
  for (const column::PageInfo& p : dir.pages()) pages.push_back(PageJson(p, col));
  j["pages"] = std::move(pages);
  if (!unmatched.empty()) j["offset_index_unmatched"] = unmatched;
  if (!error->ok()) {
    j["stopped_at"] = walked_end;
    j["error"] = error->message();
  }
  return j;
}

// ---- the text view, rendered from the JSON value ----

std::string Cell(const json& j, const char* key, const std::string& fallback = "") {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string TypeText(const std::string& page_type) {
  if (page_type == "DICTIONARY_PAGE") return "dictionary";
  if (page_type == "DATA_PAGE") return "data v1";
  if (page_type == "DATA_PAGE_V2") return "data v2";
  if (page_type == "INDEX_PAGE") return "index";
  return page_type;
}

void PrintChunk(std::ostream& out, size_t g, const json& c) {
  out << "\nrow group " << g << ", column '" << Cell(c, "path") << "' ("
      << Cell(c, "physical_type");
  if (c.contains("codec")) out << ", " << Cell(c, "codec");
  out << ")";
  if (!c.contains("pages")) {
    out << ": not listed\n";  // the error is on stderr
    return;
  }
  const json& pages = c["pages"];
  size_t listed = 0;
  size_t data = 0;
  for (const json& p : pages) {
    bool is_data = p["page_type"] == "DATA_PAGE" || p["page_type"] == "DATA_PAGE_V2";
    data += is_data;
    listed += p.contains("offset_index");
  }
  out << ": " << pages.size() << " page(s) in " << Cell(c, "length") << " bytes at offset "
      << Cell(c, "offset") << ", rows " << Cell(c, "num_rows", "?") << "; offset index: ";
  std::string oi = Cell(c, "offset_index");
  if (oi == "present") {
    out << "lists " << listed << " of " << data << " data page(s)";
    if (c.contains("offset_index_unmatched")) {
      out << ", " << c["offset_index_unmatched"].size() << " entr(ies) match no page";
    }
  } else {
    out << (oi == "unusable" ? "unusable" : "none");
  }
  if (c.contains("stopped_at")) out << "; stopped at offset " << Cell(c, "stopped_at");
  out << '\n';
  // The last column only when the chunk has an offset index to compare with.
  std::vector<std::string> header = {"offset", "type",  "encoding",   "values",       "first row",
                                     "rows",   "nulls", "compressed", "uncompressed", "min",
                                     "max",    "exact", "crc"};
  if (oi == "present") header.push_back("offset index");
  TextTable table(std::move(header));
  for (const json& p : pages) {
    bool is_data = p["page_type"] == "DATA_PAGE" || p["page_type"] == "DATA_PAGE_V2";
    const json stats = p.contains("statistics") ? p["statistics"] : json::object();
    std::string nulls = is_data ? Cell(p, "num_nulls", Cell(stats, "null_count", "?")) : "";
    std::string in_index = "no";
    if (p.contains("offset_index")) {
      const json& e = p["offset_index"];
      in_index = "row " + Cell(e, "first_row_index");
      if (e["size_matches"] == false) in_index += " (other size)";
    }
    std::vector<std::string> row = {Cell(p, "offset"),
                                    TypeText(Cell(p, "page_type")),
                                    Cell(p, "encoding"),
                                    Cell(p, "num_values"),
                                    is_data ? Cell(p, "first_row", "?") : "",
                                    is_data ? Cell(p, "num_rows", "?") : "",
                                    nulls,
                                    Cell(p, "compressed_page_size"),
                                    Cell(p, "uncompressed_page_size"),
                                    ClipCell(Cell(stats, "min")),
                                    ClipCell(Cell(stats, "max")),
                                    ExactnessText(stats),
                                    p["crc"] == true ? "yes" : "no"};
    if (oi == "present") row.push_back(in_index);
    table.AddRow(std::move(row));
  }
  table.Print(out, "  ");
}

// Prints a chunk's error after whatever was listed before it.
int Report(const Status& st) {
  std::cout.flush();
  return ReportError(st);
}

}  // namespace

int RunInspectPages(const InspectPagesArgs& args) {
  int exit_code = 0;
  auto fail = [&](int code) { exit_code = std::max(exit_code, code); };
  json all = json::array();
  bool first_text = true;
  OpenOptions open;
  auto keys = MakeDecryptionOptions(args.keys);
  if (!keys.ok()) return Report(keys.status());
  open.decryption = *keys;
  std::shared_ptr<Storage> storage = MakeStorage(args.storage);
  for (const std::string& path : args.files) {
    FileOpenOptions tail;
    tail.tail_bytes = TailBytes(open, /*remote=*/true);
    Result<std::unique_ptr<RandomAccessFile>> file = storage->Open(path, tail);
    Result<std::shared_ptr<const ParquetMetadata>> opened =
        file.ok() ? ReadParquetMetadata(**file, open)
                  : Result<std::shared_ptr<const ParquetMetadata>>(file.status());
    if (!opened.ok()) {
      fail(Report(opened.status()));
      continue;
    }
    const ParquetMetadata& md = **opened;
    const std::vector<RowGroup>& row_groups = md.file().row_groups;
    if (args.row_group && *args.row_group >= row_groups.size()) {
      fail(Report(Status::InvalidArgument(md.file_name() + ": no row group " +
                                          std::to_string(*args.row_group) + " (the file has " +
                                          std::to_string(row_groups.size()) + ")")));
      continue;
    }
    std::vector<int32_t> leaves;
    if (args.column) {
      const ColumnDescriptor* col = md.schema().FindColumn(*args.column);
      if (!col) {
        fail(Report(
            Status::InvalidArgument(md.file_name() + ": no leaf column '" + *args.column + "'")));
        continue;
      }
      leaves.push_back(md.schema().nodes()[static_cast<size_t>(col->node)].column_index);
    } else {
      for (size_t c = 0; c < md.schema().num_columns(); ++c) {
        leaves.push_back(static_cast<int32_t>(c));
      }
    }
    size_t first = args.row_group.value_or(0);
    size_t last = args.row_group ? first + 1 : row_groups.size();
    // The offset indexes of the listed chunks, in one coalesced read.
    format::PageIndexStore indexes(**file, md);
    std::vector<format::PageIndexStore::Request> requests;
    for (size_t g = first; g < last; ++g) {
      for (int32_t leaf : leaves) requests.push_back({g, leaf, false});
    }
    uint64_t index_bytes = 0;
    Status loaded = indexes.Load(requests, &index_bytes);
    if (!loaded.ok()) {
      fail(Report(loaded.WithContext(md.file_name())));
      continue;
    }
    // Text is printed chunk by chunk, so a chunk's error line follows its listing.
    if (!args.as_json) {
      if (!first_text) std::cout << '\n';
      first_text = false;
      std::cout << "file: " << md.file_name() << '\n';
    }
    json groups = json::array();
    for (size_t g = first; g < last; ++g) {
      json chunks = json::array();
      for (int32_t leaf : leaves) {
        Status error;
        json c = ChunkPagesJson(**file, md, indexes, g, leaf, &error);
        if (args.as_json) {
          chunks.push_back(std::move(c));
        } else {
          PrintChunk(std::cout, g, c);  // and dropped: text holds one chunk's listing at a time
        }
        if (!error.ok()) fail(Report(error));
      }
      groups.push_back(
          {{"ordinal", g}, {"num_rows", row_groups[g].num_rows}, {"columns", std::move(chunks)}});
    }
    if (args.as_json) all.push_back({{"file", md.file_name()}, {"row_groups", std::move(groups)}});
  }
  if (args.as_json && !all.empty()) {
    std::cout << (args.files.size() == 1 ? all[0] : all)
                     .dump(2, ' ', false, json::error_handler_t::replace)
              << '\n';
  }
  return exit_code;
}

}  // namespace pqsift::cli
