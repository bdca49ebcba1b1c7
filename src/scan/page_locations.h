// Page locations for the column chunks whose footer places no offset index (DuckDB's files, and
// Spark's, Hive's and Impala's without a page index): derived from the chunks' page headers,
// read header by header before any page body, and adopted into the file's PageIndexStore as if
// the file had written them. The scan then treats such a chunk as it treats one with an offset
// index: its slices start at page starts where they can (scan/slicer.h), each reader fetches
// only the pages holding its rows, while it needs them (scan/row_group_data.h), and a page is
// passed over by its location, not by reading through the chunk. Without them a chunk is read
// whole, held until its row group's last slice is done, and its pages are handed from slice to
// slice in one chain per column.
//
// Local files only for now: on a remote store each header read would be a round trip, so its
// chunks are read whole (a slice's in one wave) until the walk itself goes in waves.
//
// A chunk the footer's tail read holds (ParquetMetadata::CachedBytes) is walked there, unread.
//
// Which chunks: those of the requested (row group, leaf) pairs that have no usable offset index
// after PageIndexStore::Load, that pqsift can read in place (not encrypted, not in another
// file), at least `min_chunk_bytes` long (a smaller chunk is cheaper to read whole than to walk),
// and whose headers give every data page's rows (flat columns, or v2 pages) adding up to the
// row group's. The walk (column::ReadPageDirectory) reads 1 KiB at each header and gives
// up once its reads pass a share of the chunk (pages so small that their headers cost what the
// bodies do): such a chunk is read whole, as before. A header that does not decode is no error
// here: the chunk is read whole, and its reader reports it.
//
// Errors: only the file failing (IOError). Thread safety: call during planning, on the thread
// that plans (PageIndexStore's rule).
#pragma once

#include <cstdint>
#include <span>

#include "format/page_index_store.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

namespace pqsift::scan {

struct PageLocationOptions {
  int64_t min_chunk_bytes = int64_t{1} << 20;
  // The walk's reads (1 KiB at each header) may take at most this share of the chunk (and at
  // least 16 KiB): pages of a few KiB are not worth it.
  int64_t max_read_share = 64;  // 1/64
};

// Adds the derived offset indexes to `store`; `*bytes_read` adds the bytes the walks read.
Status DerivePageLocations(const RandomAccessFile& file, const ParquetMetadata& metadata,
                           std::span<const format::PageIndexStore::Request> requests,
                           format::PageIndexStore& store, uint64_t* bytes_read,
                           const PageLocationOptions& options = {});

}  // namespace pqsift::scan
