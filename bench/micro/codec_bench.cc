// pqsift_codec_bench FILE [COLUMNS] [--headers-only]
// The codec alone: walks every page of every column chunk of FILE (of the leaf columns in the
// comma list COLUMNS, "" or absent for all) and decompresses every page body with
// compression::Decompress, the entry point a scan uses (Debian's libzstd, libsnappy, ...).
// Nothing is decoded: no levels, no values, no CRC check. Used by `bench/run --codec` to set
// a scan's CPU time beside the codec's.
//
// Per column chunk, outside the timing: one read of the whole chunk into memory and its page
// directory from the headers (column::BuildPageDirectory). Timed (thread CPU time and wall
// time), per chunk: the Decompress calls of its pages, into one output buffer reused from page
// to page (grown, and so touched, before the timing: page faults of fresh memory are not the
// codec's). A v2 data page stores its levels uncompressed in front of the values: only the
// values part goes through the codec, as in column/page_reader.cc; a v2 page marked
// uncompressed, an empty one, and every page of an UNCOMPRESSED chunk are counted but not
// decompressed. Index pages and unknown page types are counted and skipped.
//
// --headers-only: the walk without decompressing (page counts per column, for the suite's
// "pages decompressed" column).
//
// Prints one line of JSON:
//   {"file":F,"codecs":[..],"pages":P,"pages_decompressed":D,"compressed_bytes":C,
//    "uncompressed_bytes":U,"cpu_s":S,"wall_s":W,
//    "columns":{"name":{"pages":n,"dictionary_pages":n,"data_pages":n,"pages_decompressed":n},..}}
// compressed_bytes / uncompressed_bytes: what went into and came out of the codec.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "column/page_directory.h"
#include "compression/codec.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/parquet_file.h"

namespace {

using namespace pqsift;

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The chunk's bytes: from its dictionary page (when it has one) to the end of its last page.
Result<ByteRange> ChunkRange(const ColumnMetaData& meta, uint64_t file_size,
                             const std::string& where) {
  int64_t start = meta.data_page_offset;
  // Some writers store 0 for "no dictionary"; a dictionary page always precedes the data pages.
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  if (start < 0 || meta.total_compressed_size < 0 ||
      static_cast<uint64_t>(start) + static_cast<uint64_t>(meta.total_compressed_size) >
          file_size) {
    return Status::Corruption(where + ": column chunk outside the file");
  }
  return ByteRange{static_cast<uint64_t>(start), static_cast<uint64_t>(meta.total_compressed_size)};
}

struct ColumnCounts {
  uint64_t pages = 0;
  uint64_t dictionary_pages = 0;
  uint64_t data_pages = 0;
  uint64_t pages_decompressed = 0;
};

int Fail(const Status& st) {
  std::fprintf(stderr, "pqsift_codec_bench: %s\n", st.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  bool headers_only = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--headers-only") {
      headers_only = true;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.empty() || positional.size() > 2) {
    std::fprintf(stderr, "usage: pqsift_codec_bench FILE [COLUMNS] [--headers-only]\n");
    return 2;
  }
  const std::string path = positional[0];
  std::vector<std::string> wanted;
  if (positional.size() > 1) wanted = SplitList(positional[1]);

  auto file = OpenLocalFile(path);
  if (!file.ok()) return Fail(file.status());
  auto md = ReadParquetMetadata(**file);
  if (!md.ok()) return Fail(md.status());
  const ParquetMetadata& meta = **md;
  const auto& columns = meta.schema().columns();

  std::vector<size_t> leaves;
  if (wanted.empty()) {
    for (size_t i = 0; i < columns.size(); ++i) leaves.push_back(i);
  } else {
    for (const std::string& name : wanted) {
      auto it = std::find_if(columns.begin(), columns.end(),
                             [&](const ColumnDescriptor& c) { return c.path == name; });
      if (it == columns.end()) {
        return Fail(Status::InvalidArgument(path + ": no leaf column '" + name + "'"));
      }
      leaves.push_back(static_cast<size_t>(it - columns.begin()));
    }
  }

  std::map<size_t, ColumnCounts> counts;
  std::set<std::string> codecs;
  uint64_t pages = 0;
  uint64_t pages_decompressed = 0;
  uint64_t compressed_bytes = 0;
  uint64_t uncompressed_bytes = 0;
  double cpu_s = 0;
  double wall_s = 0;
  std::vector<uint8_t> output;

  const auto& row_groups = meta.file().row_groups;
  for (size_t g = 0; g < row_groups.size(); ++g) {
    for (size_t leaf : leaves) {
      const ColumnChunk& chunk = row_groups[g].columns[leaf];
      const ColumnDescriptor& col = columns[leaf];
      const std::string where =
          path + ": row group " + std::to_string(g) + ", column '" + col.path + "'";
      if (!chunk.meta_data || chunk.file_path) {
        return Fail(Status::NotSupported(where + ": chunk encrypted or in another file"));
      }
      const ColumnMetaData& cm = *chunk.meta_data;
      codecs.insert(CodecName(cm.codec));
      auto range = ChunkRange(cm, meta.file_size(), where);
      if (!range.ok()) return Fail(range.status());
      auto bytes = (*file)->Read(*range);
      if (!bytes.ok()) return Fail(bytes.status());
      auto dir = column::BuildPageDirectory(bytes->span(), range->offset,
                                            col.max_repetition_level == 0, where);
      if (!dir.ok()) return Fail(dir.status());

      // What goes through the codec: (input, output size) per page, found before the timing.
      struct Job {
        std::span<const uint8_t> input;
        size_t output_size;
      };
      std::vector<Job> jobs;
      ColumnCounts& cc = counts[leaf];
      for (const column::PageInfo& p : dir->pages()) {
        ++pages;
        ++cc.pages;
        bool is_data = p.is_data_page();
        bool is_dict = p.type == PageType::kDictionaryPage;
        if (is_dict) ++cc.dictionary_pages;
        if (is_data) ++cc.data_pages;
        if (!is_data && !is_dict) continue;
        std::span<const uint8_t> body = bytes->span().subspan(
            p.offset - range->offset + p.header_size, static_cast<size_t>(p.compressed_size));
        size_t out_size = static_cast<size_t>(p.uncompressed_size);
        bool compressed = cm.codec != CompressionCodec::kUncompressed;
        if (p.type == PageType::kDataPageV2) {
          size_t levels = static_cast<size_t>(p.v2_repetition_levels_bytes) +
                          static_cast<size_t>(p.v2_definition_levels_bytes);
          if (levels > body.size() || levels > out_size) {
            return Fail(Status::Corruption(where + ": v2 levels longer than the page"));
          }
          body = body.subspan(levels);
          out_size -= levels;
          compressed = compressed && p.v2_is_compressed;
        }
        if (body.empty() && out_size == 0) compressed = false;
        if (!compressed) continue;
        jobs.push_back({body, out_size});
        ++cc.pages_decompressed;
        ++pages_decompressed;
        compressed_bytes += body.size();
        uncompressed_bytes += out_size;
      }
      if (headers_only || jobs.empty()) continue;
      size_t largest = 0;
      for (const Job& j : jobs) largest = std::max(largest, j.output_size);
      if (output.size() < largest) output.resize(largest);  // touched here, not in the timing

      const double cpu0 = ThreadCpuSeconds();
      const auto wall0 = std::chrono::steady_clock::now();
      for (const Job& j : jobs) {
        Status st = compression::Decompress(cm.codec, j.input, {output.data(), j.output_size});
        if (!st.ok()) return Fail(st.WithContext(where));
      }
      wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      cpu_s += ThreadCpuSeconds() - cpu0;
    }
  }

  std::string out = "{\"file\":" + JsonString(path) + ",\"codecs\":[";
  bool first = true;
  for (const std::string& c : codecs) {
    out += (first ? "" : ",") + JsonString(c);
    first = false;
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "],\"pages\":%llu,\"pages_decompressed\":%llu,\"compressed_bytes\":%llu,"
                "\"uncompressed_bytes\":%llu,\"cpu_s\":%.6f,\"wall_s\":%.6f,\"columns\":{",
                static_cast<unsigned long long>(pages),
                static_cast<unsigned long long>(pages_decompressed),
                static_cast<unsigned long long>(compressed_bytes),
                static_cast<unsigned long long>(uncompressed_bytes), cpu_s, wall_s);
  out += buf;
  first = true;
  for (size_t leaf : leaves) {
    const ColumnCounts& cc = counts[leaf];
    std::snprintf(buf, sizeof buf,
                  ":{\"pages\":%llu,\"dictionary_pages\":%llu,\"data_pages\":%llu,"
                  "\"pages_decompressed\":%llu}",
                  static_cast<unsigned long long>(cc.pages),
                  static_cast<unsigned long long>(cc.dictionary_pages),
                  static_cast<unsigned long long>(cc.data_pages),
                  static_cast<unsigned long long>(cc.pages_decompressed));
    out += (first ? "" : ",") + JsonString(columns[leaf].path) + buf;
    first = false;
  }
  out += "}}\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}
