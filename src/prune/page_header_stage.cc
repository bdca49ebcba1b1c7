// The page-header stage: where a filter column's chunk has no column index, the statistics in
// its pages' own headers prove pages absent, as the page index does (prune/page_segments.h),
// under the trust rules of the footer's statistics (BoundsFromStatistics). Many writers put
// page statistics there and nowhere else (parquet-mr before the page index, Spark, Hive, Impala).
//
// I/O: the page headers of the filter columns' chunks in the row groups still undecided, read
// header by header (column::ReadPageDirectory: windows of headers, not the page bodies). A chunk
// whose headers do not give every data page's rows (nested columns with v1 pages), do not add up
// to the row group or do not decode is no evidence (the scan reports a bad header if it reads
// the chunk). The pages found become the chunk's offset index in the scan's PageIndexStore
// (Adopt): the scan then fetches only the pages a selection needs and cuts its slices at their
// starts. Not read: a chunk the footer says holds one data page and has statistics (its page's
// statistics are the chunk's), a chunk smaller than the stage's minimum (reading its headers
// costs about what skipping its pages would save; PruningOptions::min_page_header_chunk_bytes),
// or any chunk when the stage may not read (runtime checks).
#include <chrono>
#include <map>

#include "column/leaf_reader.h"
#include "column/page_directory.h"
#include "prune/page_segments.h"
#include "prune/stage.h"
#include "prune/statistics.h"

namespace pqsift::prune {
namespace {

// The pages of the chunks whose headers were read, with each page's bounds.
class HeaderEvidence final : public PageEvidence {
 public:
  struct Chunk {
    format::OffsetIndex index;
    std::vector<ColumnBounds> bounds;  // per data page
  };

  void Add(size_t g, int32_t leaf, Chunk chunk) { chunks_[{g, leaf}] = std::move(chunk); }

  format::PageRows Pages(size_t g, const FilterLeaf& leaf, int64_t num_rows) const override {
    format::PageRows rows;
    rows.num_rows = num_rows;
    auto it = chunks_.find({g, leaf.leaf});
    if (leaf.known() && it != chunks_.end()) rows.index = &it->second.index;
    return rows;
  }
  ColumnBounds Bounds(size_t g, const FilterLeaf& leaf, size_t page, int64_t) const override {
    return chunks_.at({g, leaf.leaf}).bounds[page];
  }

 private:
  std::map<std::pair<size_t, int32_t>, Chunk> chunks_;
};

// The footer says the chunk holds one data page, and gives the chunk's statistics.
bool OneDataPageWithStatistics(const ColumnMetaData& meta) {
  if (!meta.encoding_stats || !meta.statistics) return false;
  int64_t data_pages = 0;
  for (const PageEncodingStats& s : *meta.encoding_stats) {
    if (s.page_type == PageType::kDataPage || s.page_type == PageType::kDataPageV2) {
      data_pages += s.count;
    }
  }
  return data_pages == 1;
}

class PageHeaderStage final : public PruningStage {
 public:
  explicit PageHeaderStage(int64_t min_chunk_bytes) : min_chunk_bytes_(min_chunk_bytes) {}
  std::string_view name() const override { return "page headers"; }

  Status Apply(const FileContext& context, FilePlan& plan, StageReport& report) override {
    auto start = std::chrono::steady_clock::now();
    if (report.stage.empty()) report.stage = std::string(name());
    PQSIFT_RETURN_IF_ERROR(CheckPlanMatchesFile(context, plan));
    if (!context.filter.root || !context.load_evidence) return Status::OK();
    const FileMetaData& file = context.metadata.file();

    std::vector<FilterLeaf> leaves;
    for (size_t k = 0; k < context.filter.columns.size(); ++k) {
      leaves.push_back(ResolveFilterLeaf(context, k));
    }
    std::optional<format::PageIndexStore> own_store;
    format::PageIndexStore* store = context.page_indexes;
    if (store == nullptr) store = &own_store.emplace(context.file, context.metadata);

    HeaderEvidence evidence;
    std::vector<CutRowGroup> cuts;
    for (size_t g = 0; g < plan.row_groups.size(); ++g) {
      const RowGroupPlan& p = plan.row_groups[g];
      if (p.decision() == Decision::kSkip || p.fully_matched) continue;
      const RowGroup& rg = file.row_groups[g];
      bool any = false;
      for (const FilterLeaf& leaf : leaves) {
        if (!leaf.known() || static_cast<size_t>(leaf.leaf) >= rg.columns.size()) continue;
        if (store->column_index(g, leaf.leaf) != nullptr) continue;  // the page index's
        const ColumnChunk& chunk = rg.columns[leaf.leaf];
        if (!chunk.meta_data || chunk.is_encrypted || chunk.file_path) continue;
        if (chunk.meta_data->total_compressed_size < min_chunk_bytes_ ||
            OneDataPageWithStatistics(*chunk.meta_data)) {
          continue;
        }
        PQSIFT_ASSIGN_OR_RETURN(std::optional<HeaderEvidence::Chunk> pages,
                                ReadHeaders(context, g, leaf, &report.bytes_read));
        if (!pages) continue;
        store->Adopt(g, leaf.leaf, pages->index);
        evidence.Add(g, leaf.leaf, std::move(*pages));
        any = true;
      }
      if (!any) continue;
      CutRowGroup cut = CutIntoSegments(g, rg.num_rows, {0, rg.num_rows}, leaves, evidence);
      if (cut.indexed) cuts.push_back(std::move(cut));
    }
    ProveSegments(context, std::move(cuts), leaves, evidence, std::string(name()), plan, report);
    report.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Status::OK();
  }

 private:
  // The chunk's pages and their bounds from its headers; nullopt when they are no evidence. Only
  // the file failing is an error.
  static Result<std::optional<HeaderEvidence::Chunk>> ReadHeaders(const FileContext& context,
                                                                  size_t g, const FilterLeaf& leaf,
                                                                  uint64_t* bytes_read) {
    const RowGroup& rg = context.metadata.file().row_groups[g];
    const ColumnMetaData& meta = *rg.columns[leaf.leaf].meta_data;
    const std::string where = context.metadata.file_name() + ": row group " + std::to_string(g) +
                              ", column '" + leaf.descriptor->path + "'";
    auto range = column::ColumnChunkRange(meta, context.file.size(), where);
    if (!range.ok()) return std::optional<HeaderEvidence::Chunk>();
    const bool flat = leaf.descriptor->max_repetition_level == 0;
    column::PageDirectory directory;
    // Small reads: a header is tens to hundreds of bytes, and only headers are wanted here.
    column::PageDirectoryOptions options;
    options.read_window = size_t{8} << 10;
    options.header_read = size_t{1} << 10;
    Status read = column::ReadPageDirectory(context.file, *range, flat, where, directory, options,
                                            bytes_read);
    if (read.code() == StatusCode::kIOError) return read;
    std::optional<format::OffsetIndex> index;
    if (read.ok()) index = column::OffsetIndexOf(directory, rg.num_rows);
    if (!index) return std::optional<HeaderEvidence::Chunk>();
    HeaderEvidence::Chunk chunk;
    chunk.index = std::move(*index);
    // The pages OffsetIndexOf lists, in its order.
    for (const column::PageInfo& page : directory.pages()) {
      if (!page.is_data_page() || page.num_rows == 0) continue;
      ColumnBounds bounds =
          BoundsFromStatistics(*leaf.descriptor, *leaf.type, page.statistics, page.num_rows);
      // A v2 header counts its nulls even without statistics (flat columns: one value a row).
      if (!bounds.null_count && flat && page.num_nulls >= 0 && page.num_nulls <= page.num_rows) {
        bounds.null_count = page.num_nulls;
      }
      chunk.bounds.push_back(std::move(bounds));
    }
    return std::optional<HeaderEvidence::Chunk>(std::move(chunk));
  }

  int64_t min_chunk_bytes_;
};

}  // namespace

std::unique_ptr<PruningStage> MakePageHeaderStage(int64_t min_chunk_bytes) {
  return std::make_unique<PageHeaderStage>(min_chunk_bytes);
}

}  // namespace pqsift::prune
