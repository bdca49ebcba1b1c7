#include "column/page_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "compression/codec.h"
#include "format/file_decryptor.h"
#include "format/metadata_internals.h"

namespace pqsift::column {

Result<PageReaderOptions> ChunkPageOptions(PageReaderOptions options, const ParquetMetadata& md,
                                           size_t g, size_t column, std::string_view where) {
  if (format::DecryptorOf(md) == nullptr) return options;
  PQSIFT_ASSIGN_OR_RETURN(options.decryptor,
                          format::DecryptorOf(md)->ChunkDecryptor(g, column, where));
  options.row_group_ordinal = format::DecryptorOf(md)->RowGroupOrdinal(g);
  options.column_ordinal = static_cast<int32_t>(column);
  return options;
}

PageReader::PageReader(std::span<const uint8_t> chunk, uint64_t chunk_offset,
                       CompressionCodec codec, std::string where, PageReaderOptions options)
    : chunk_(chunk),
      chunk_offset_(chunk_offset),
      codec_(codec),
      where_(std::move(where)),
      options_(std::move(options)) {}

// The supply an arriving page's decoders pull from: it runs the page's stream as far as they ask.
class PageReader::Arriving final : public encoding::ByteSupply {
 public:
  Arriving(std::unique_ptr<compression::PageStream> stream, const uint8_t* body)
      : stream_(std::move(stream)), body_(body) {}

  // A failed stream stops growing; its error stays with it (status()).
  const uint8_t* Grow(const uint8_t* at, size_t n) override {
    const auto offset = static_cast<size_t>(at - body_);
    const size_t want = n > stream_->size() - offset ? stream_->size() : offset + n;
    if (want > stream_->filled()) (void)stream_->FillTo(want);
    return body_ + stream_->filled();
  }
  const uint8_t* end() const override { return body_ + stream_->size(); }
  const uint8_t* SkipOver(const uint8_t* at, size_t n) override {
    const auto offset = static_cast<size_t>(at - body_);
    (void)stream_->DiscardTo(n > stream_->size() - offset ? stream_->size() : offset + n);
    return body_ + stream_->filled();
  }
  // The bytes there copied, then the rest straight from a stream that may discard (not through
  // the page), or from the page after FillTo.
  const uint8_t* CopyOut(const uint8_t* at, std::span<uint8_t> into, size_t* copied) override {
    const auto pos = static_cast<size_t>(at - body_);
    const size_t there =
        std::min(into.size(), stream_->filled() - std::min(pos, stream_->filled()));
    if (there > 0) std::memcpy(into.data(), at, there);
    *copied = there;
    if (there < into.size()) {
      auto out = stream_->ReadOut(into.subspan(there));
      if (out.ok() && *out) {
        *copied = into.size();
      } else if (out.ok()) {  // a stream that cannot: through the page
        size_t more = 0;
        ByteSupply::CopyOut(at + there, into.subspan(there), &more);
        *copied += more;
      }
    }
    return body_ + stream_->filled();
  }
  // The bytes there in place, then pieces of a stream that may discard (written into the page
  // only from where `take` stops), or more bytes in place from one that cannot.
  const uint8_t* Walk(const uint8_t* at, size_t limit, const Take& take) override {
    auto pos = static_cast<size_t>(at - body_);
    const size_t stop = limit > stream_->size() - pos ? stream_->size() : pos + limit;
    for (;;) {
      const size_t filled = stream_->filled();
      if (pos < filled) {
        const size_t there = std::min(filled, stop) - pos;
        const size_t took = take({body_ + pos, there});
        pos += took;
        if (took < there) return body_ + filled;
      }
      if (pos == stop || stream_->done() || !stream_->status().ok()) return body_ + filled;
      // Pieces (of at most kPiece bytes) end where the walk may, and before the last byte:
      // FillTo checks the end there. Empty from a stream that cannot hand them out.
      auto piece = stream_->NextPiece(std::min(stop, stream_->size() - 1));
      if (!piece.ok()) return body_ + stream_->filled();
      if (piece->empty()) {
        (void)stream_->FillTo(filled + 1);
        continue;
      }
      const size_t took = take(*piece);
      pos = stream_->filled();
      if (took < piece->size()) {
        stream_->KeepRestOfPiece(took);  // where the decoder goes on
        return body_ + pos;
      }
    }
  }
  const compression::PageStream& stream() const { return *stream_; }

 private:
  std::unique_ptr<compression::PageStream> stream_;
  const uint8_t* body_;
};

PageReader::~PageReader() = default;
PageReader::PageReader(PageReader&&) noexcept = default;
PageReader& PageReader::operator=(PageReader&&) noexcept = default;

Status PageReader::arrival_status() const {
  return arriving_ ? arriving_->stream().status() : Status::OK();
}

int64_t PageReader::bytes_arrived() const {
  return bytes_arrived_ + (arriving_ ? static_cast<int64_t>(arriving_->stream().filled()) : 0);
}

bool PageReader::arrived_whole() const { return arriving_ && arriving_->stream().done(); }

void PageReader::EndArrival() {
  if (!arriving_) return;
  bytes_arrived_ += static_cast<int64_t>(arriving_->stream().filled());
  arriving_.reset();
}

Status PageReader::ErrorAt(uint64_t file_offset, const std::string& what) const {
  return Status::Corruption(where_ + ", page at offset " + std::to_string(file_offset) + ": " +
                            what);
}

Result<bool> PageReader::Next() {
  EndArrival();
  if (pos_ >= chunk_.size()) return false;
  page_start_ = pos_;
  header_ = format::PageHeader{};
  size_t header_size = 0;
  Status st = options_.decryptor
                  ? DecryptHeader(&header_size)
                  : format::DecodePageHeader(chunk_.subspan(pos_), header_, &header_size);
  if (!st.ok()) {
    return st.code() == StatusCode::kAuthentication ? st.WithContext(where_) : Error(st.message());
  }
  body_start_ = pos_ + header_size;
  auto compressed = static_cast<size_t>(header_.compressed_page_size);
  if (compressed > chunk_.size() - body_start_) {
    return Error("page of " + std::to_string(compressed) + " bytes overruns the column chunk (" +
                 std::to_string(chunk_.size() - body_start_) + " bytes left)");
  }
  if (header_.uncompressed_page_size > options_.max_page_bytes) {
    return Status::ResourceExhausted(
        where_ + ": page declares " + std::to_string(header_.uncompressed_page_size) +
        " uncompressed bytes, over the limit of " + std::to_string(options_.max_page_bytes));
  }
  pos_ = body_start_ + compressed;
  return true;
}

Status PageReader::DecryptHeader(size_t* module_size) {
  const crypto::ModuleDecryptor& d = *options_.decryptor;
  std::span<const uint8_t> bytes = chunk_.subspan(pos_);
  if (next_ordinal_index_ < ordinals_.size()) next_page_ordinal_ = ordinals_[next_ordinal_index_];
  // The first page is the dictionary page when the chunk has one: tried as that first.
  crypto::ModuleId data = Module(crypto::ModuleType::kDataPageHeader, next_page_ordinal_);
  crypto::ModuleId dictionary = Module(crypto::ModuleType::kDictionaryPageHeader, 0);
  PQSIFT_ASSIGN_OR_RETURN(size_t size, d.ModuleSizeAt(bytes, data));
  std::span<const uint8_t> module = bytes.first(size);
  bool is_dictionary = false;
  std::optional<Result<Buffer>> attempt;
  if (first_page_) {
    attempt.emplace(d.Decrypt(dictionary, module));
    is_dictionary = attempt->ok();
  }
  if (!is_dictionary) {
    std::optional<Status> as_dictionary;
    if (attempt) as_dictionary = attempt->status();
    attempt.emplace(d.Decrypt(data, module));
    // Neither: the message names both, as either may be the module that was changed.
    if (as_dictionary && !attempt->ok() && as_dictionary->code() == StatusCode::kAuthentication &&
        attempt->status().code() == StatusCode::kAuthentication) {
      return Status::Authentication(crypto::DescribeModule(dictionary) + " or " +
                                    crypto::DescribeModule(data) +
                                    ": authentication failed (wrong key or AAD prefix, or the "
                                    "module was changed or moved)");
    }
  }
  Result<Buffer>& plain = *attempt;
  if (!plain.ok()) return plain.status();
  first_page_ = false;
  header_plain_ = std::move(plain).value();
  size_t header_size = 0;
  PQSIFT_RETURN_IF_ERROR(format::DecodePageHeader(header_plain_.span(), header_, &header_size));
  bool dictionary_type = header_.type == PageType::kDictionaryPage;
  if (dictionary_type != is_dictionary) {
    return Status::Corruption("the " + crypto::DescribeModule(is_dictionary ? dictionary : data) +
                              " decrypts to the header of a " +
                              (dictionary_type ? "dictionary page" : "data page"));
  }
  page_ordinal_ = is_dictionary ? 0 : next_page_ordinal_;
  if (!is_dictionary) {
    ++next_page_ordinal_;
    if (next_ordinal_index_ < ordinals_.size()) ++next_ordinal_index_;
  }
  *module_size = size;
  return Status::OK();
}

PageReader::Mark PageReader::MarkPage() const {
  return {chunk_.subspan(body_start_, static_cast<size_t>(header_.compressed_page_size)),
          page_file_offset(), header_, page_ordinal_};
}

Result<Page> PageReader::Read(Arrival arrival) {
  EndArrival();
  std::unique_ptr<compression::PageStream> stream;
  PQSIFT_ASSIGN_OR_RETURN(
      Page page,
      ReadPage(header_,
               chunk_.subspan(body_start_, static_cast<size_t>(header_.compressed_page_size)),
               page_file_offset(), &decompressed_, page_ordinal_,
               arrival == Arrival::kWhole ? nullptr : &stream, arrival == Arrival::kSkipInto));
  if (stream) {
    arriving_ = std::make_unique<Arriving>(std::move(stream), page.body.data());
    page.body = page.body.first(0);
    page.more = arriving_.get();
  }
  return page;
}

Result<Page> PageReader::ReadMarked(const Mark& mark, Buffer* storage) const {
  return ReadPage(mark.header, mark.stored, mark.file_offset, storage, mark.page_ordinal);
}

Result<Page> PageReader::ReadPage(const format::PageHeader& header, std::span<const uint8_t> stored,
                                  uint64_t file_offset, Buffer* storage, int32_t page_ordinal,
                                  std::unique_ptr<compression::PageStream>* stream,
                                  bool discards) const {
  // Encrypted pages are decrypted whole first; they are decompressed whole too.
  if (!options_.decryptor) {
    return DecodePage(header, stored, file_offset, storage, 0, stream, discards);
  }
  const crypto::ModuleDecryptor& d = *options_.decryptor;
  crypto::ModuleId id = header.type == PageType::kDictionaryPage
                            ? Module(crypto::ModuleType::kDictionaryPage, 0)
                            : Module(crypto::ModuleType::kDataPage, page_ordinal);
  size_t overhead = d.Overhead(id.type);
  if (stored.size() < overhead) {
    return ErrorAt(file_offset, "encrypted page of " + std::to_string(stored.size()) +
                                    " bytes is shorter than its nonce and length");
  }
  size_t plain_size = stored.size() - overhead;
  // The decrypted page, and room after it for the decompressed values (at most the declared
  // uncompressed size, which Next() checked against max_page_bytes).
  size_t room = codec_ == CompressionCodec::kUncompressed
                    ? 0
                    : static_cast<size_t>(std::max<int32_t>(header.uncompressed_page_size, 0));
  *storage = Buffer(plain_size + room);
  Status st = d.Decrypt(id, stored, {storage->mutable_data(), plain_size});
  if (!st.ok()) {
    return st.code() == StatusCode::kAuthentication ? st.WithContext(where_)
                                                    : ErrorAt(file_offset, st.message());
  }
  return DecodePage(header, storage->span().first(plain_size), file_offset, storage, plain_size);
}

Result<Page> PageReader::DecodePage(const format::PageHeader& header,
                                    std::span<const uint8_t> stored, uint64_t file_offset,
                                    Buffer* storage, size_t storage_offset,
                                    std::unique_ptr<compression::PageStream>* stream,
                                    bool discards) const {
  auto corrupt = [&](const std::string& what) { return ErrorAt(file_offset, what); };
  if (options_.verify_crc && header.crc) {
    uLong crc = crc32(0L, stored.data(), static_cast<uInt>(stored.size()));
    if (static_cast<uint32_t>(crc) != static_cast<uint32_t>(*header.crc)) {
      return corrupt("CRC mismatch (the page is corrupt)");
    }
  }
  Page page;
  page.type = header.type;
  size_t uncompressed_levels = 0;  // v2: bytes stored uncompressed in front of the values
  bool compressed = codec_ != CompressionCodec::kUncompressed;
  switch (header.type) {
    case PageType::kDictionaryPage:
      page.num_values = header.dictionary_page_header->num_values;
      page.encoding = header.dictionary_page_header->encoding;
      break;
    case PageType::kDataPage: {
      const format::DataPageHeader& h = *header.data_page_header;
      page.num_values = h.num_values;
      page.encoding = h.encoding;
      page.definition_level_encoding = h.definition_level_encoding;
      page.repetition_level_encoding = h.repetition_level_encoding;
      break;
    }
    case PageType::kDataPageV2: {
      const format::DataPageHeaderV2& h = *header.data_page_header_v2;
      page.is_v2 = true;
      page.num_values = h.num_values;
      page.num_rows = h.num_rows;
      page.num_nulls = h.num_nulls;
      page.encoding = h.encoding;
      uncompressed_levels = static_cast<size_t>(h.repetition_levels_byte_length) +
                            static_cast<size_t>(h.definition_levels_byte_length);
      page.repetition_levels = stored.subspan(0, h.repetition_levels_byte_length);
      page.definition_levels =
          stored.subspan(h.repetition_levels_byte_length, h.definition_levels_byte_length);
      compressed = compressed && h.is_compressed;
      if (static_cast<size_t>(header.uncompressed_page_size) < uncompressed_levels) {
        return corrupt("uncompressed size is smaller than the levels");
      }
      break;
    }
    default: return corrupt("cannot read a page of type " + PageTypeName(header.type));
  }
  std::span<const uint8_t> values = stored.subspan(uncompressed_levels);
  size_t values_size = static_cast<size_t>(header.uncompressed_page_size) - uncompressed_levels;
  // A v2 page of only nulls stores no value bytes even when marked compressed (writers skip
  // the codec for empty input): nothing to decompress, and no codec accepts an empty stream.
  if (values.empty() && values_size == 0) compressed = false;
  if (!compressed) {
    if (values.size() != values_size) {
      return corrupt("uncompressed page stores " + std::to_string(values.size()) +
                     " bytes but declares " + std::to_string(values_size));
    }
    page.body = values;
    return page;
  }
  // Checked before the allocation: the declared size is a claim of the file.
  Status plausible = compression::CheckDecompressedSize(codec_, values, values_size);
  if (!plausible.ok()) return corrupt(plausible.message());
  if (storage_offset == 0) {
    *storage = Buffer(values_size);
  } else if (values_size > storage->size() - storage_offset) {
    return Status::Internal(where_ + ": no room for the decrypted page's values");
  }
  std::span<uint8_t> out(storage->mutable_data() + storage_offset, values_size);
  if (stream != nullptr && header.type != PageType::kDictionaryPage &&
      compression::StreamsPieceByPiece(codec_) &&
      values_size >= static_cast<uint64_t>(std::max<int64_t>(options_.on_demand_page_bytes, 1))) {
    auto made = compression::PageStream::Make(codec_, values, out,
                                              discards ? compression::PageStream::Discards::kAllowed
                                                       : compression::PageStream::Discards::kNo);
    if (!made.ok()) return made.status().WithContext(where_);
    *stream = std::move(made).value();
    page.body = out;
    return page;
  }
  Status st = compression::Decompress(codec_, values, out);
  if (!st.ok()) {
    return st.code() == StatusCode::kCorruption ? corrupt(st.message()) : st.WithContext(where_);
  }
  page.body = out;
  return page;
}

}  // namespace pqsift::column
