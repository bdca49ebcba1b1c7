// Decodes FileMetaData (the footer) from Thrift compact bytes into the structs of
// pqsift/metadata.h. Checks the encoding (lengths, counts, nesting, wire types, required
// fields); checks of meaning (schema shape, sizes against the file) happen in parquet_file.cc.
#pragma once

#include <cstdint>
#include <span>

#include "pqsift/metadata.h"
#include "pqsift/status.h"

namespace pqsift::format {

// `bytes` must outlive `out` (views point into it). Corruption with the byte position on error.
Status DecodeFileMetaData(std::span<const uint8_t> bytes, FileMetaData& out);

// Parquet modular encryption: the plaintext head of an encrypted footer ("PARE"), and how many
// bytes it took (the encrypted footer module follows it).
Status DecodeFileCryptoMetaData(std::span<const uint8_t> bytes, FileCryptoMetaData& out,
                                size_t* consumed);
// A ColumnMetaData serialized alone (a decrypted ColumnChunk.encrypted_column_metadata).
Status DecodeColumnMetaData(std::span<const uint8_t> bytes, ColumnMetaData& out);

// Also used by page headers (DataPageHeader.statistics) and tests.
class ThriftDecoder;
void DecodeStatistics(ThriftDecoder& d, Statistics& out);
void DecodeLogicalType(ThriftDecoder& d, LogicalType& out);

}  // namespace pqsift::format
