#include "column/leaf_reader.h"

#include <algorithm>

#include "column/arrow_type.h"
#include "encoding/bit_util.h"

namespace pqsift::column {
namespace {

int64_t CountEqual(const int16_t* levels, int64_t n, int16_t value) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += levels[i] == value;
  return count;
}

}  // namespace

Result<ByteRange> ColumnChunkRange(const ColumnMetaData& meta, uint64_t file_size,
                                   const std::string& where) {
  int64_t start = meta.data_page_offset;
  // Some writers store 0 for "no dictionary"; a dictionary page always precedes the data pages.
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  if (start < 0 || meta.total_compressed_size < 0) {
    return Status::Corruption(where + ": negative column chunk offset or size");
  }
  ByteRange range{static_cast<uint64_t>(start), static_cast<uint64_t>(meta.total_compressed_size)};
  PQSIFT_RETURN_IF_ERROR(
      CheckRange(range.offset, range.length, file_size, where + ": column chunk"));
  return range;
}

namespace {

// The data page ordinals of the pages a sparse buffer holds (empty when one is unknown).
std::vector<int32_t> Ordinals(const std::vector<PageSpan>& present) {
  std::vector<int32_t> out;
  out.reserve(present.size());
  for (const PageSpan& span : present) {
    if (span.ordinal < 0) return {};
    out.push_back(span.ordinal);
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<LeafReader>> LeafReader::Make(const ColumnDescriptor& column,
                                                     const ColumnMetaData& meta,
                                                     std::span<const uint8_t> chunk,
                                                     uint64_t chunk_offset, int64_t num_rows,
                                                     std::string where, PageReaderOptions options,
                                                     std::vector<PageSpan> present) {
  auto type = ArrowTypeForLeaf(column);
  if (!type.ok()) return type.status();
  auto values = MakeValueAccumulator(column, *type);
  if (!values.ok()) return values.status().WithContext(where);
  PageReader pages(chunk, chunk_offset, meta.codec, std::move(where), std::move(options));
  std::unique_ptr<LeafReader> reader(new LeafReader(
      column, std::move(pages), num_rows, std::move(type).value(), std::move(values).value()));
  reader->sparse_ = !present.empty();
  reader->pages_.SetPageOrdinals(Ordinals(present));
  reader->present_ = std::move(present);
  return reader;
}

void LeafReader::Continue(std::span<const uint8_t> chunk, uint64_t chunk_offset,
                          std::shared_ptr<const void> owner, std::vector<PageSpan> present) {
  pages_.Rebase(chunk, chunk_offset);
  pages_.SetPageOrdinals(Ordinals(present));
  owner_ = std::move(owner);
  present_ = std::move(present);
  next_present_ = 0;
  at_end_ = false;
}

LeafReader::LeafReader(const ColumnDescriptor& column, PageReader pages, int64_t num_rows,
                       std::shared_ptr<const DataType> type,
                       std::unique_ptr<ValueAccumulator> values)
    : column_(column),
      pages_(std::move(pages)),
      num_rows_(num_rows),
      type_(std::move(type)),
      values_(std::move(values)) {}

Status LeafReader::Error(const std::string& what) const {
  // The page being read (or the last one), so the message says where in the file to look.
  return Status::Corruption(pages_.where() + ", page at offset " +
                            std::to_string(pages_.page_file_offset()) + ": " + what);
}

void LeafReader::LetGoOfPageBytes() {
  // The reader's own bytes too, unless a Continue since brought it the next pages in others.
  if (owner_ == page_owner_) owner_.reset();
  page_owner_.reset();
}

Status LeafReader::PageError(const Status& st) const {
  // A decoder that found an arriving page short: the stream's error says why.
  Status arrival = pages_.arrival_status();
  return Error(arrival.ok() ? st.message() : arrival.message());
}

void LeafReader::ArriveLevels(Page* page) const {
  auto grow = [&](size_t n) {
    page->body = {page->body.data(), page->more->Grow(page->body.data(), n)};
    return page->body.size() >= n;
  };
  // The sections of a v1 page's levels, in front of its values: RLE with a 4-byte length, or
  // BIT_PACKED with a size the count gives. Short or malformed levels: DecodeLevels says so.
  size_t need = 0;
  auto section = [&](Encoding encoding, int16_t max_level) {
    if (max_level == 0) return;
    if (encoding != Encoding::kRle) {
      const auto bits = static_cast<uint64_t>(std::max<int64_t>(page->num_values, 0)) *
                        static_cast<uint64_t>(encoding::LevelBitWidth(max_level));
      need += static_cast<size_t>((bits + 7) / 8);
      return;
    }
    if (!grow(need + 4)) return;
    need += 4 + size_t{encoding::LoadLE32(page->body.data() + need)};
  };
  section(page->repetition_level_encoding, column_.max_repetition_level);
  section(page->definition_level_encoding, column_.max_definition_level);
  grow(need);
}

Status LeafReader::DecodeLevels(const Page& page, size_t* values_offset) {
  const int64_t n = page.num_values;
  const int16_t max_rep = column_.max_repetition_level;
  const int16_t max_def = column_.max_definition_level;
  // The levels are held whole, and a few bytes of RLE can claim 2^31 of them: the count is
  // checked against the chunk's rows (a flat column has one level per row) and the page memory
  // limit before anything is allocated.
  if (max_rep == 0 && n > num_rows_) {
    return Status::Corruption("the page holds " + std::to_string(n) + " values, more than the " +
                              std::to_string(num_rows_) + " rows of its column chunk");
  }
  const int64_t level_bytes = n * 2 * ((max_rep > 0 ? 1 : 0) + (max_def > 0 ? 1 : 0));
  if (level_bytes > pages_.options().max_page_bytes) {
    return Status::Corruption("the page's " + std::to_string(n) + " levels need " +
                              std::to_string(level_bytes) + " bytes, over the page limit of " +
                              std::to_string(pages_.options().max_page_bytes) +
                              " (max_page_bytes)");
  }
  page_rep_.resize(max_rep > 0 ? static_cast<size_t>(n) : 0);
  page_all_defined_ = false;
  size_t offset = 0;
  auto decode = [&](Encoding encoding, int16_t max_level, std::span<const uint8_t> v2_levels,
                    std::vector<int16_t>& out) -> Status {
    if (max_level == 0) return Status::OK();
    encoding::LevelDecoder decoder;
    if (page.is_v2) {
      PQSIFT_RETURN_IF_ERROR(decoder.InitV2(max_level, n, v2_levels));
    } else {
      size_t consumed = 0;
      PQSIFT_RETURN_IF_ERROR(
          decoder.InitV1(encoding, max_level, n, page.body.subspan(offset), &consumed));
      offset += consumed;
    }
    // A flat page without nulls (the common case) needs no levels in memory: every row is a
    // value. Nested columns keep theirs, as record assembly reads them.
    if (&out == &page_def_ && max_rep == 0 && decoder.RestAllEqual(max_level)) {
      page_all_defined_ = true;
      return Status::OK();
    }
    out.resize(static_cast<size_t>(n));
    return decoder.Decode(out.data(), n);
  };
  PQSIFT_RETURN_IF_ERROR(
      decode(page.repetition_level_encoding, max_rep, page.repetition_levels, page_rep_));
  PQSIFT_RETURN_IF_ERROR(
      decode(page.definition_level_encoding, max_def, page.definition_levels, page_def_));
  *values_offset = offset;
  return Status::OK();
}

Result<PageSpan> LeafReader::NextPresentPage(int64_t* skippable, int64_t* skipped, int64_t* row) {
  if (next_present_ == present_.size()) {
    return Error("the chunk holds more data pages than the offset index selected");
  }
  PageSpan span = present_[next_present_++];
  int64_t absent = span.first_row - *row;  // rows of pages that were not fetched
  if (absent < 0)
    return Error("a page starts at row " + std::to_string(span.first_row) +
                 ", before the end of the previous one");
  if (absent > *skippable) {
    return Status::Internal(pages_.where() + ": rows from " + std::to_string(*row) +
                            " are needed but their pages were not fetched");
  }
  *skippable -= absent;
  *skipped += absent;
  *row += absent;
  if (absent > 0) in_record_ = false;
  return span;
}

namespace {

// PLAIN values of these types are copied out of the page as they are decoded, never viewed in
// it (encoding/plain.h).
bool CopiedOut(PhysicalType type) {
  return type == PhysicalType::kInt32 || type == PhysicalType::kInt64 ||
         type == PhysicalType::kInt96 || type == PhysicalType::kFloat ||
         type == PhysicalType::kDouble;
}

}  // namespace

Status LeafReader::LoadPage(int64_t skippable, int64_t* skipped, int64_t row) {
  const bool nested = column_.max_repetition_level > 0;
  const bool sparse = sparse_;
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(bool more, pages_.Next());
    if (!more) {
      if (sparse) {
        // Rows after the last page held: passed over, as long as the caller skips them.
        int64_t absent = num_rows_ - row;
        if (absent > skippable) {
          return Status::Internal(pages_.where() + ": rows from " + std::to_string(row) +
                                  " are needed but their pages were not fetched");
        }
        if (absent > 0) *skipped += absent;
        if (next_present_ != present_.size()) {
          return Error("the chunk holds fewer data pages than the offset index selected");
        }
      }
      at_end_ = true;
      return Status::OK();
    }
    const format::PageHeader& h = pages_.header();
    if (h.type == PageType::kDictionaryPage) {
      if (dictionary_seen_) return Error("a second dictionary page in one column chunk");
      dictionary_seen_ = true;
      if (!dictionary_set_) {
        dictionary_page_ = pages_.MarkPage();
        dictionary_owner_ = owner_;
      }
      continue;
    }
    if (h.type != PageType::kDataPage && h.type != PageType::kDataPageV2) continue;
    const bool v2 = h.type == PageType::kDataPageV2;
    // Rows in the page, when the header alone tells: every level is a row in a flat column,
    // and v2 pages count rows (and start at a row boundary).
    int64_t page_rows = -1;
    if (!nested) {
      page_rows = v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
    } else if (v2) {
      page_rows = h.data_page_header_v2->num_rows;
    }
    if (sparse) {
      PQSIFT_ASSIGN_OR_RETURN(PageSpan span, NextPresentPage(&skippable, skipped, &row));
      if (page_rows >= 0 && page_rows != span.num_rows) {
        return Error("the offset index gives the page at row " + std::to_string(span.first_row) +
                     " " + std::to_string(span.num_rows) + " rows, its header " +
                     std::to_string(page_rows));
      }
      page_rows = span.num_rows;
    }
    // A page starts a record unless a nested v1 page may continue the last one.
    bool starts_record = !nested || !in_record_ || v2 || sparse;
    if (skippable > 0 && page_rows >= 0 && page_rows <= skippable && starts_record) {
      skippable -= page_rows;
      *skipped += page_rows;
      row += page_rows;
      in_record_ = false;
      ++pages_passed_over_;
      continue;  // passed over without decompressing
    }
    // A page entered with most of it to skip (a selective slice far into a large page), or
    // whose values are copied out as they are read (PLAIN fixed-width), need not keep what
    // the reader passes over (column/page_reader.h).
    const bool skips_most = page_rows > 0 && skippable >= page_rows / 2 && starts_record;
    const Encoding encoding = v2 ? h.data_page_header_v2->encoding : h.data_page_header->encoding;
    const bool copied_out = encoding == Encoding::kPlain && CopiedOut(column_.physical_type);
    PQSIFT_ASSIGN_OR_RETURN(
        Page page, pages_.Read(skips_most || copied_out ? Arrival::kSkipInto : Arrival::kOnDemand));
    ++pages_decoded_;
    ++pages_decompressed_;
    // An arriving page counts the bytes it is decompressed to as they come (bytes_arrived).
    if (page.more == nullptr) bytes_decompressed_ += h.uncompressed_page_size;
    page_owner_ = owner_;
    loaded_page_end_ = page_rows >= 0 ? row + page_rows : -1;
    if (page.more != nullptr && !v2) ArriveLevels(&page);
    size_t values_offset = 0;
    Status st = DecodeLevels(page, &values_offset);
    if (!st.ok()) return PageError(st);
    page_levels_ = page.num_values;
    level_pos_ = 0;
    if (sparse && nested && CountEqual(page_rep_.data(), page_levels_, 0) != page_rows) {
      return Error("the offset index gives the page at row " + std::to_string(row) + " " +
                   std::to_string(page_rows) + " rows, its levels start a different number");
    }
    int64_t non_null =
        column_.max_definition_level == 0 || page_all_defined_
            ? page_levels_
            : CountEqual(page_def_.data(), page_levels_, column_.max_definition_level);
    if (page.encoding == Encoding::kPlainDictionary || page.encoding == Encoding::kRleDictionary) {
      PQSIFT_RETURN_IF_ERROR(LoadDictionary());
    }
    st = values_->StartPage(page.encoding, page.body.subspan(values_offset), non_null, page.more);
    if (!st.ok()) return PageError(st);
    // The last page of bytes fetched for this reader alone, decompressed into the reader's own
    // buffer: those bytes are no longer needed (a Continue brings the next pages), so a page of
    // 100 MB is not held twice, compressed and decompressed, while its rows are decoded. The
    // header's views into those bytes are not used after this point. An arriving page still
    // decompresses from them: they go once it has arrived whole (in Advance).
    release_when_arrived_ = false;
    if (!whole_ && pages_.at_end() && !pages_.Stores(page.body)) {
      if (page.more == nullptr) {
        LetGoOfPageBytes();
      } else {
        release_when_arrived_ = true;
      }
    }
    if (v2 || sparse) in_record_ = false;
    if (page_levels_ > 0) return Status::OK();
  }
}

Status LeafReader::LoadDictionary() {
  if (dictionary_set_) return Status::OK();
  // Another reader of the chunk may have decoded it: taken under the lock, so two readers that
  // need it at once decode it once.
  std::unique_lock<std::mutex> lock;
  if (share_ != nullptr) {
    lock = std::unique_lock<std::mutex>(share_->mu);
    if (share_->dictionary) {
      PQSIFT_RETURN_IF_ERROR(values_->AdoptDictionary(share_->dictionary));
      dictionary_set_ = true;
      dictionary_page_.reset();
      dictionary_owner_.reset();
      return Status::OK();
    }
  }
  if (!dictionary_page_) return Status::OK();  // missing: StartPage says so
  Buffer storage;
  PQSIFT_ASSIGN_OR_RETURN(Page page, pages_.ReadMarked(*dictionary_page_, &storage));
  ++pages_decompressed_;
  bytes_decompressed_ += dictionary_page_->header.uncompressed_page_size;
  dictionary_page_.reset();
  dictionary_owner_.reset();
  Status st = values_->SetDictionary(page.body, page.num_values);
  if (!st.ok()) return Error("dictionary page: " + st.message());
  dictionary_set_ = true;
  if (share_ != nullptr) share_->dictionary = values_->dictionary();
  return Status::OK();
}

Status LeafReader::Advance(int64_t n, bool read, const uint8_t* keep) {
  if (n < 0 || n > records_left()) {
    return Status::OutOfRange(pages_.where() + ": cannot advance " + std::to_string(n) + " rows; " +
                              std::to_string(records_left()) + " are left");
  }
  const int16_t max_def = column_.max_definition_level;
  const bool nested = column_.max_repetition_level > 0;
  int64_t started = 0;               // records begun by this call
  int64_t kept = 0;                  // records appended by this call (reading with `keep`)
  std::vector<uint8_t> keep_values;  // per non-null value of a page's levels (reading with `keep`)
  for (;;) {
    if (level_pos_ == page_levels_) {
      // A record ends with its page when pages start at row boundaries (flat columns, or the
      // offset index's pages); otherwise it may go on in the next page.
      if ((!nested || sparse_) && started == n) {
        in_record_ = false;
        break;
      }
      int64_t skipped = 0;
      PQSIFT_RETURN_IF_ERROR(LoadPage(read ? 0 : n - started, &skipped, position_ + started));
      started += skipped;
      if (at_end_) {
        if (started == n) break;
        return Error("the column chunk ends after " + std::to_string(position_ + started) +
                     " rows; the row group has " + std::to_string(num_rows_));
      }
      if (level_pos_ == page_levels_) continue;  // only skipped pages so far
    }
    const int16_t* def =
        max_def > 0 && !page_all_defined_ ? page_def_.data() + level_pos_ : nullptr;
    const int16_t* rep = nested ? page_rep_.data() + level_pos_ : nullptr;
    int64_t available = page_levels_ - level_pos_;
    int64_t take = 0;
    bool finished = false;
    const uint8_t* page_keep = keep != nullptr ? keep + started : nullptr;  // flat: one per level
    if (!nested) {
      take = std::min(available, n - started);
      started += take;
      finished = started == n;
    } else {
      if (position_ == 0 && started == 0 && !in_record_ && rep[0] != 0) {
        return Error("the first level of the chunk does not start a row");
      }
      for (; take < available; ++take) {
        if (rep[take] == 0) {
          if (started == n) {
            finished = true;
            break;
          }
          ++started;
        }
      }
    }
    int64_t non_null = def ? CountEqual(def, take, max_def) : take;
    const uint8_t* value_keep = page_keep;
    if (read && page_keep != nullptr) {
      // Only the kept records' levels; the values' keep bytes are those of the defined levels.
      int64_t kept_here = 0;
      if (def != nullptr) {
        keep_values.clear();
        for (int64_t i = 0; i < take; ++i) {
          if (def[i] == max_def) keep_values.push_back(page_keep[i]);
          if (page_keep[i] != 0) {
            pending_.definition_levels.push_back(def[i]);
            ++kept_here;
          }
        }
        value_keep = keep_values.data();
      } else {
        for (int64_t i = 0; i < take; ++i) kept_here += page_keep[i] != 0 ? 1 : 0;
        if (max_def > 0) {
          pending_.definition_levels.insert(pending_.definition_levels.end(), kept_here, max_def);
        }
      }
      pending_.num_levels += kept_here;
      kept += kept_here;
    } else if (read) {
      if (def) pending_.definition_levels.insert(pending_.definition_levels.end(), def, def + take);
      if (max_def > 0 && !def) {
        pending_.definition_levels.insert(pending_.definition_levels.end(), take, max_def);
      }
      if (rep) pending_.repetition_levels.insert(pending_.repetition_levels.end(), rep, rep + take);
      pending_.num_levels += take;
    }
    // Values skipped to the page's end are left undecoded: the next page starts afresh (and an
    // arriving page is not decompressed further for them).
    const bool skips_to_page_end = !read && level_pos_ + take == page_levels_;
    Status st = read ? values_->Read(non_null, value_keep, nullptr)
                     : (skips_to_page_end ? Status::OK() : values_->Skip(non_null));
    if (!st.ok()) return PageError(st);
    if (release_when_arrived_ && pages_.arrived_whole()) {
      LetGoOfPageBytes();
      release_when_arrived_ = false;
    }
    level_pos_ += take;
    if (take > 0) in_record_ = true;
    if (finished) {
      if (!nested) break;
      in_record_ = false;  // stopped at the start of the next record
      break;
    }
  }
  position_ += n;
  if (read) pending_.num_records += keep != nullptr ? kept : n;
  return Status::OK();
}

Status LeafReader::ReadRecords(int64_t n) { return Advance(n, true); }
Status LeafReader::SkipRecords(int64_t n) { return Advance(n, false); }
Status LeafReader::ReadRecordsKeeping(int64_t n, const uint8_t* keep) {
  if (!flat()) return Error("a selective read of a nested column");
  return Advance(n, true, keep);
}

LeafBatch LeafReader::Flush() {
  LeafBatch out = std::move(pending_);
  pending_ = LeafBatch{};
  out.values = values_->Finish();
  return out;
}

}  // namespace pqsift::column
