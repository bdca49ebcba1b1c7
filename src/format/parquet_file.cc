// Opening a file: the tail read, the footer checks and the decode (see parquet_file.h), and the
// footers larger than the tail read of many files fetched in one wave (format/footer_wave.h),
// which shares the trailer checks.
#include "pqsift/parquet_file.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "crypto/module.h"
#include "format/file_decryptor.h"
#include "format/file_metadata_decoder.h"
#include "format/footer_wave.h"
#include "io/wave.h"

namespace pqsift {
namespace {

constexpr uint64_t kMagicSize = 4;
constexpr uint64_t kTrailerSize = 8;  // u32 footer length + "PAR1"

uint32_t LoadLE32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

// Meaning checks on a decoded footer, so later layers can rely on its shape.
Status ValidateRowGroups(const FileMetaData& meta, const Schema& schema) {
  if (meta.num_rows < 0) return Status::Corruption("negative num_rows");
  for (size_t g = 0; g < meta.row_groups.size(); ++g) {
    const RowGroup& rg = meta.row_groups[g];
    std::string where = "row group " + std::to_string(g);
    if (rg.num_rows < 0) return Status::Corruption(where + ": negative num_rows");
    if (rg.columns.size() != schema.num_columns()) {
      return Status::Corruption(where + " has " + std::to_string(rg.columns.size()) +
                                " column chunks but the schema has " +
                                std::to_string(schema.num_columns()) + " leaf columns");
    }
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnChunk& chunk = rg.columns[c];
      const ColumnDescriptor& col = schema.columns()[c];
      std::string cwhere = where + ", column '" + col.path + "'";
      if (!chunk.meta_data) {
        if (chunk.is_encrypted) continue;  // refused when read, not when opened
        return Status::Corruption(cwhere + ": no column metadata");
      }
      const ColumnMetaData& m = *chunk.meta_data;
      if (m.type != col.physical_type) {
        return Status::Corruption(cwhere + ": chunk type " + PhysicalTypeName(m.type) +
                                  " differs from the schema type " +
                                  PhysicalTypeName(col.physical_type));
      }
      if (m.num_values < 0 || m.total_compressed_size < 0 || m.total_uncompressed_size < 0 ||
          m.data_page_offset < 0 || m.dictionary_page_offset.value_or(0) < 0) {
        return Status::Corruption(cwhere + ": negative count, size or offset");
      }
    }
  }
  return Status::OK();
}

}  // namespace

// Builds a ParquetMetadata from bytes read from the file: `bytes` starts at `bytes_offset` and
// holds the footer (`footer_len` bytes ending where the 8-byte trailer starts, or at the end).
class MetadataMaker {
 public:
  static Result<std::shared_ptr<const ParquetMetadata>> Make(std::string file_name,
                                                             uint64_t file_size, Buffer bytes,
                                                             uint64_t bytes_offset,
                                                             size_t footer_start, size_t footer_len,
                                                             const DecryptionOptions* keys,
                                                             bool encrypted_footer) {
    auto md = std::shared_ptr<ParquetMetadata>(new ParquetMetadata());
    md->file_name_ = std::move(file_name);
    md->file_size_ = file_size;
    md->bytes_ = std::move(bytes);
    md->bytes_offset_ = bytes_offset;
    md->footer_ = md->bytes_.span().subspan(footer_start, footer_len);
    md->encrypted_footer_ = encrypted_footer;
    format::FileDecryptorBuilder crypto(keys, md->file_name_);
    if (encrypted_footer) {
      // Errors name the file already.
      PQSIFT_ASSIGN_OR_RETURN(Buffer plain, crypto.DecryptFooter(md->footer_));
      md->decrypted_.push_back(std::move(plain));
      md->footer_ = md->decrypted_.back().span();
    }
    Status st = format::DecodeFileMetaData(md->footer_, md->file_);
    if (st.ok() && !encrypted_footer && md->file_.encryption_algorithm) {
      // A plaintext footer of an encrypted file ends with its signature: nonce | tag.
      constexpr size_t kSignature = crypto::kNonceSize + crypto::kTagSize;
      if (md->footer_.size() < kSignature) {
        return Status::Corruption(md->file_name_ + ": plaintext footer without its signature");
      }
      size_t signed_size = md->footer_.size() - kSignature;
      PQSIFT_RETURN_IF_ERROR(crypto.CheckPlaintextFooter(md->file_, md->footer_.first(signed_size),
                                                         md->footer_.subspan(signed_size)));
    }
    if (st.ok()) {
      auto schema = Schema::Build(md->file_.schema,
                                  md->file_.column_orders ? &*md->file_.column_orders : nullptr);
      if (!schema.ok()) {
        st = schema.status();
      } else {
        md->schema_ = std::move(schema).value();
        auto decryptor = crypto.DecryptColumns(md->file_, md->schema_, &md->decrypted_);
        if (decryptor.ok()) {
          md->decryptor_ = std::move(decryptor).value();
          st = ValidateRowGroups(md->file_, md->schema_);
        } else {
          st = decryptor.status();
        }
      }
    }
    if (!st.ok()) return st.WithContext(md->file_name_);
    return std::shared_ptr<const ParquetMetadata>(std::move(md));
  }
};

std::optional<std::span<const uint8_t>> ParquetMetadata::CachedBytes(ByteRange range) const {
  if (range.offset < bytes_offset_ || range.length > bytes_.size() ||
      range.offset - bytes_offset_ > bytes_.size() - range.length) {
    return std::nullopt;
  }
  return bytes_.span().subspan(range.offset - bytes_offset_, range.length);
}

Result<std::shared_ptr<const ParquetMetadata>> DecodeParquetMetadata(std::string file_name,
                                                                     uint64_t file_size,
                                                                     Buffer footer) {
  size_t len = footer.size();
  uint64_t offset = file_size >= len + kTrailerSize ? file_size - kTrailerSize - len : 0;
  return MetadataMaker::Make(std::move(file_name), file_size, std::move(footer), offset, 0, len,
                             nullptr, false);
}

namespace {

// Where a file's footer lies, from the trailer at the end of its tail read.
struct FooterPlace {
  uint64_t tail_len = 0;    // the speculative read of the file's end
  uint64_t footer_len = 0;  // FileMetaData (or the encrypted footer), before the trailer
  bool encrypted = false;   // "PARE"
  // The part of the footer before the tail (empty: the tail holds the footer whole).
  ByteRange missing() const {
    if (footer_len + kTrailerSize <= tail_len) return {};
    return {0, footer_len + kTrailerSize - tail_len};  // offset set by the caller
  }
};

uint64_t TailLength(const RandomAccessFile& file, const OpenOptions& options) {
  return std::min(file.size(), std::max(TailBytes(options, file.remote()), kTrailerSize));
}

// The trailer's checks: the magic, and a footer length that fits the file and the limit.
Result<FooterPlace> PlaceFooter(const std::string& name, uint64_t size, const Buffer& tail,
                                const OpenOptions& options) {
  FooterPlace place;
  place.tail_len = tail.size();
  const uint8_t* trailer = tail.data() + tail.size() - kTrailerSize;
  // "PARE": Parquet modular encryption's encrypted footer (FileCryptoMetaData + a module).
  place.encrypted = std::memcmp(trailer + 4, "PARE", 4) == 0;
  if (!place.encrypted && std::memcmp(trailer + 4, "PAR1", 4) != 0) {
    return Status::Corruption(name + ": not a Parquet file (no PAR1 magic at the end)");
  }
  place.footer_len = LoadLE32(trailer);
  if (place.footer_len > size - kMagicSize - kTrailerSize) {
    return Status::Corruption(name + ": footer length " + std::to_string(place.footer_len) +
                              " exceeds the file size " + std::to_string(size));
  }
  if (place.footer_len > options.max_footer_bytes) {
    return Status::ResourceExhausted(name + ": footer of " + std::to_string(place.footer_len) +
                                     " bytes exceeds the limit of " +
                                     std::to_string(options.max_footer_bytes));
  }
  return place;
}

}  // namespace

Result<std::shared_ptr<const ParquetMetadata>> ReadParquetMetadata(const RandomAccessFile& file,
                                                                   const OpenOptions& options) {
  const std::string& name = file.name();
  uint64_t size = file.size();
  if (size < kMagicSize + kTrailerSize) {
    return Status::Corruption(name + ": not a Parquet file (only " + std::to_string(size) +
                              " bytes; the smallest has 12)");
  }
  uint64_t tail_len = TailLength(file, options);
  PQSIFT_ASSIGN_OR_RETURN(Buffer tail, file.Read({size - tail_len, tail_len}));
  PQSIFT_ASSIGN_OR_RETURN(FooterPlace place, PlaceFooter(name, size, tail, options));
  const DecryptionOptions* keys = options.decryption.get();
  const uint64_t footer_len = place.footer_len;
  if (place.missing().length == 0) {
    // The usual case: the tail holds the footer. Keep all of it: a scan may reuse the rest.
    return MetadataMaker::Make(name, size, std::move(tail), size - tail_len,
                               tail_len - kTrailerSize - footer_len, footer_len, keys,
                               place.encrypted);
  }
  // The footer is larger than the speculative read: one more request for the part missing
  // (found in memory when PrefetchFooterRests fetched it).
  uint64_t missing = place.missing().length;
  PQSIFT_ASSIGN_OR_RETURN(Buffer head, file.Read({size - kTrailerSize - footer_len, missing}));
  Buffer footer(footer_len);
  std::memcpy(footer.mutable_data(), head.data(), missing);
  std::memcpy(footer.mutable_data() + missing, tail.data(), tail_len - kTrailerSize);
  uint64_t offset = size - kTrailerSize - footer_len;
  return MetadataMaker::Make(name, size, std::move(footer), offset, 0, footer_len, keys,
                             place.encrypted);
}

namespace format {

void PrefetchFooterRests(std::span<const RandomAccessFile* const> files,
                         const OpenOptions& options) {
  std::vector<io::WaveRead> reads;
  for (const RandomAccessFile* file : files) {
    if (file == nullptr) continue;
    const uint64_t size = file->size();
    if (size < kMagicSize + kTrailerSize) continue;
    const uint64_t tail_len = TailLength(*file, options);
    // Remote files only: their store fetched the tail with the open (a suffix range), so it
    // is read from memory here; a local read costs no round trip worth saving.
    if (!file->remote()) continue;
    Result<Buffer> tail = file->Read({size - tail_len, tail_len});
    if (!tail.ok()) continue;
    // A trailer that fails its checks: ReadParquetMetadata says why.
    Result<FooterPlace> place = PlaceFooter(file->name(), size, *tail, options);
    if (!place.ok() || place->missing().length == 0) continue;
    io::WaveRead& read = reads.emplace_back();
    read.file = file;
    read.ranges.push_back({size - kTrailerSize - place->footer_len, place->missing().length});
  }
  // A failed read leaves nothing with its file: its own read then fails and says why.
  if (!reads.empty()) io::PrefetchWave(reads);
}

std::vector<Result<std::shared_ptr<const ParquetMetadata>>> ReadFooters(
    std::span<const RandomAccessFile* const> files, const OpenOptions& options) {
  PrefetchFooterRests(files, options);
  std::vector<Result<std::shared_ptr<const ParquetMetadata>>> out;
  out.reserve(files.size());
  for (const RandomAccessFile* file : files) {
    if (file == nullptr) {
      out.emplace_back(Status::InvalidArgument("a file that failed to open has no footer"));
      continue;
    }
    out.push_back(ReadParquetMetadata(*file, options));
    file->ReleasePrefetched();
  }
  return out;
}

}  // namespace format
}  // namespace pqsift
