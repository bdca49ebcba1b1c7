// Opening a Parquet file: reading and decoding its footer.
//
//   ... column chunks ... | FileMetaData (Thrift compact) | u32 length (LE) | "PAR1"
//                          \__________ footer __________/
//
// Parquet modular encryption (pqsift/encryption.h, OpenOptions::decryption):
//   encrypted footer:  ... | FileCryptoMetaData | encrypted FileMetaData module | u32 | "PARE"
//   plaintext footer:  ... | FileMetaData (with encryption_algorithm) | nonce | tag | u32 | "PAR1"
// The footer is decrypted (or its signature checked, when the footer key is known) and each
// encrypted column's metadata decrypted with its key, when the key is known.
//
// ReadParquetMetadata makes one speculative read of the file's tail (TailBytes: 64 KiB of a
// local file, 512 KiB of a remote one by default), which holds the whole footer for most
// files, and a second read only when the footer is larger. DecodeParquetMetadata does the CPU part
// alone (no I/O), for callers that already hold the bytes.
//
// Thread safety: ParquetMetadata is immutable; share it freely across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pqsift/encryption.h"
#include "pqsift/io.h"
#include "pqsift/metadata.h"
#include "pqsift/schema.h"
#include "pqsift/status.h"

namespace pqsift {

class Storage;  // pqsift/storage.h

struct OpenOptions {
  // Bytes read from the end of the file in the first request; unset: TailBytes' default.
  std::optional<uint64_t> tail_bytes;
  // A footer larger than this is refused (ResourceExhausted) before it is read.
  uint64_t max_footer_bytes = 256ull * 1024 * 1024;
  // Keys for files written with Parquet modular encryption; none: such a file's encrypted
  // footer is refused and its encrypted columns cannot be read (the others can).
  std::shared_ptr<const DecryptionOptions> decryption;
  // Where paths and URLs are opened (local files, http(s)://, s3://, or stores of the
  // caller's: pqsift/storage.h); null: Storage::Default().
  std::shared_ptr<Storage> storage;
};

// What the first read of a file's end fetches: options.tail_bytes when set, else 64 KiB of a
// local file and 512 KiB of a remote one. A second local read costs microseconds; a remote
// one a round trip, and page indexes, written just before the footer, usually lie in the last
// 512 KiB: a selective remote scan then reads them without a round trip of their own.
inline constexpr uint64_t kLocalTailBytes = uint64_t{64} * 1024;
inline constexpr uint64_t kRemoteTailBytes = uint64_t{512} * 1024;
inline uint64_t TailBytes(const OpenOptions& options, bool remote) {
  return options.tail_bytes.value_or(remote ? kRemoteTailBytes : kLocalTailBytes);
}

// The decoded footer with the schema tree, owning the footer bytes its views point into.
class ParquetMetadata {
 public:
  const FileMetaData& file() const { return file_; }
  const Schema& schema() const { return schema_; }
  const std::string& file_name() const { return file_name_; }
  uint64_t file_size() const { return file_size_; }
  // Length of the Thrift FileMetaData, as stored before the trailing magic (decrypted, for an
  // encrypted footer).
  uint64_t footer_length() const { return footer_.size(); }
  // Parquet modular encryption: whether the footer was encrypted ("PARE"), and whether the file
  // has encrypted chunks (then how they are decrypted is the library's own business).
  bool encrypted_footer() const { return encrypted_footer_; }
  bool has_encrypted_chunks() const { return decryptor_ != nullptr; }

  int64_t num_rows() const { return file_.num_rows; }
  size_t num_row_groups() const { return file_.row_groups.size(); }

  // The bytes of `range` when the read that fetched the footer already covered them (the
  // speculative tail read often holds the last column chunks of a small file); empty
  // otherwise. Valid as long as this object lives.
  std::optional<std::span<const uint8_t>> CachedBytes(ByteRange range) const;
  // Where the bytes read with the footer lie in the file.
  ByteRange cached_range() const { return {bytes_offset_, bytes_.size()}; }

 private:
  friend class MetadataMaker;
  friend struct MetadataInternals;

  std::string file_name_;
  uint64_t file_size_ = 0;
  Buffer bytes_;                     // what was read: the footer and possibly bytes before it
  uint64_t bytes_offset_ = 0;        // where bytes_ starts in the file
  std::span<const uint8_t> footer_;  // inside bytes_; file_ and schema_ point into it
  FileMetaData file_;
  Schema schema_;
  bool encrypted_footer_ = false;
  std::vector<Buffer> decrypted_;  // the decrypted footer and column metadata file_ points into
  // How the encrypted chunks are decrypted (null when none is): the library's FileDecryptor,
  // opaque to this header.
  std::shared_ptr<const void> decryptor_;
};

// Reads and decodes the footer of `file`. Errors name the file: Corruption for a file that is
// not Parquet or whose footer is malformed, InvalidArgument for an encrypted footer ("PARE")
// without its key, Authentication for a wrong key or a footer that fails its check,
// ResourceExhausted past max_footer_bytes, IOError from the file.
Result<std::shared_ptr<const ParquetMetadata>> ReadParquetMetadata(const RandomAccessFile& file,
                                                                   const OpenOptions& options = {});

// Decodes `footer` (the FileMetaData bytes alone) of a file of `file_size` bytes and checks it
// against the schema and the file size. No I/O.
Result<std::shared_ptr<const ParquetMetadata>> DecodeParquetMetadata(std::string file_name,
                                                                     uint64_t file_size,
                                                                     Buffer footer);

}  // namespace pqsift
