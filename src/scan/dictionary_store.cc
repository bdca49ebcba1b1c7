#include "scan/dictionary_store.h"

#include <algorithm>

#include "column/dictionary_page.h"

namespace pqsift::scan {
namespace {

constexpr int64_t kMaxDecodedDictionaryBytes = int64_t{64} << 20;

}  // namespace

DictionaryStore::DictionaryStore(RandomAccessFile& file, const ParquetMetadata& metadata,
                                 uint64_t max_held_bytes)
    : file_(file), metadata_(metadata), max_held_bytes_(max_held_bytes) {}

// The dictionary page of request `r`'s chunk; nullopt when the chunk has none we can use.
std::optional<ByteRange> DictionaryStore::RangeOf(const Request& r) const {
  const FileMetaData& file = metadata_.file();
  if (r.row_group >= file.row_groups.size() || r.leaf < 0 ||
      static_cast<size_t>(r.leaf) >= metadata_.schema().columns().size() ||
      static_cast<size_t>(r.leaf) >= file.row_groups[r.row_group].columns.size()) {
    return std::nullopt;
  }
  const ColumnChunk& chunk = file.row_groups[r.row_group].columns[r.leaf];
  if (!chunk.meta_data) return std::nullopt;
  return column::DictionaryPageRange(*chunk.meta_data, file_.size());
}

Status DictionaryStore::Load(std::span<const Request> requests, uint64_t* bytes_read) {
  // The pages not read with the footer, side by side: one wave for all the requests.
  std::vector<ByteRange> to_read;
  for (const Request& r : requests) {
    if (decoded_.count({r.row_group, r.leaf}) != 0) continue;
    std::optional<ByteRange> range = RangeOf(r);
    if (range && !metadata_.CachedBytes(*range) &&
        std::find(to_read.begin(), to_read.end(), *range) == to_read.end()) {
      to_read.push_back(*range);
    }
  }
  std::map<uint64_t, Buffer> fetched;
  if (!to_read.empty()) {
    PQSIFT_ASSIGN_OR_RETURN(std::vector<Buffer> read, file_.ReadRanges(to_read));
    for (size_t i = 0; i < to_read.size(); ++i) {
      *bytes_read += read[i].size();
      fetched.emplace(to_read[i].offset, std::move(read[i]));
    }
  }
  for (const Request& r : requests) {
    if (decoded_.count({r.row_group, r.leaf}) != 0) continue;
    PQSIFT_RETURN_IF_ERROR(LoadOne(r, &fetched));
  }
  return Status::OK();
}

Status DictionaryStore::LoadOne(const Request& r, std::map<uint64_t, Buffer>* pages) {
  std::shared_ptr<const Array>& slot = decoded_[{r.row_group, r.leaf}];
  std::optional<ByteRange> range = RangeOf(r);
  if (!range) return Status::OK();  // no such chunk, or no dictionary page: unusable
  const ColumnMetaData& meta = *metadata_.file().row_groups[r.row_group].columns[r.leaf].meta_data;
  const std::vector<ColumnDescriptor>& leaves = metadata_.schema().columns();

  std::span<const uint8_t> bytes;
  Buffer fetched;
  if (auto cached = metadata_.CachedBytes(*range)) {
    bytes = *cached;  // read with the footer: no request, nothing to keep
  } else {
    auto it = pages->find(range->offset);
    if (it == pages->end()) return Status::OK();  // handed to an earlier request of the page
    fetched = std::move(it->second);
    pages->erase(it);
    bytes = fetched.span();
  }
  std::string where = file_.name() + ": row group " + std::to_string(r.row_group) + ", column '" +
                      leaves[r.leaf].path + "'";
  // The page's declared uncompressed size is the file's claim: a small compressed page may not
  // make the planning allocate more than this (a larger one is simply no evidence).
  column::PageReaderOptions plain;
  plain.max_page_bytes = kMaxDecodedDictionaryBytes;
  // An encrypted chunk's dictionary page is decrypted with its key (without one: no evidence).
  Result<column::PageReaderOptions> options =
      column::ChunkPageOptions(plain, metadata_, r.row_group, static_cast<size_t>(r.leaf), where);
  if (!options.ok()) return Status::OK();
  Result<std::shared_ptr<Array>> values =
      column::ReadDictionaryPage(leaves[r.leaf], meta, bytes, range->offset, where, *options);
  // A dictionary that does not decode is no evidence (the scan reports the corruption if it
  // reads the chunk); one that fails authentication is an error (a changed or moved module).
  if (!values.ok() && values.status().code() == StatusCode::kAuthentication) {
    return values.status();
  }
  if (values.ok()) slot = std::move(values).value();
  if (fetched.size() == 0) return Status::OK();
  std::lock_guard<std::mutex> lock(mu_);
  if (held_bytes_ + fetched.size() <= max_held_bytes_ && held_.count(range->offset) == 0) {
    held_bytes_ += fetched.size();
    held_.emplace(range->offset, Held{r.row_group, std::move(fetched)});
  }
  return Status::OK();
}

std::shared_ptr<const Array> DictionaryStore::dictionary(size_t row_group, int32_t leaf) const {
  auto it = decoded_.find({row_group, leaf});
  return it == decoded_.end() ? nullptr : it->second;
}

std::optional<Buffer> DictionaryStore::TakeBytes(uint64_t offset) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = held_.find(offset);
  if (it == held_.end()) return std::nullopt;
  Buffer bytes = std::move(it->second.bytes);
  held_.erase(it);
  held_bytes_ -= bytes.size();
  reused_bytes_ += bytes.size();
  return bytes;
}

bool DictionaryStore::Holds(uint64_t offset) const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_.count(offset) > 0;
}

uint64_t DictionaryStore::HeldSize(uint64_t offset) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = held_.find(offset);
  return it == held_.end() ? 0 : it->second.bytes.size();
}

uint64_t DictionaryStore::bytes_reused() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reused_bytes_;
}

void DictionaryStore::ReleaseAfterPlan(const prune::FilePlan& plan) {
  decoded_.clear();
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = held_.begin(); it != held_.end();) {
    size_t g = it->second.row_group;
    bool skipped = g >= plan.row_groups.size() || plan.row_groups[g].rows.empty();
    if (!skipped) {
      ++it;
      continue;
    }
    held_bytes_ -= it->second.bytes.size();
    it = held_.erase(it);
  }
}

}  // namespace pqsift::scan
