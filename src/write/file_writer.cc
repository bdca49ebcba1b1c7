// ParquetWriter (pqsift/writer.h): row groups of column chunks, then the bloom filters, then
// the page indexes, then the footer.
//
//   "PAR1" | row group: chunk per column (ColumnChunkWriter) | ... | bloom filters |
//   column indexes | offset indexes | FileMetaData | u32 footer length (LE) | "PAR1"
//
// With encryption (file_encryptor.h), the magic is "PARE" unless the footer is plaintext; each
// encrypted column's pages are modules (the chunk writer's), its bloom filter two modules
// (header, bitset), its column and offset index one each, and the footer is encrypted or signed.
//
// Bloom filters are grouped by row group, each in column order (BloomFilter.md). Past
// kMaxHeldBloomBytes they are written right after their row group instead (the spec allows
// both places), so memory stays bounded for files of many row groups.
#include <algorithm>
#include <climits>
#include <deque>
#include <string>

#include "arrow/dictionary.h"
#include "arrow/sort.h"
#include "compression/codec.h"
#include "format/bloom_filter.h"
#include "format/metadata_encoder.h"
#include "pqsift/writer.h"
#include "write/column_chunk_writer.h"
#include "write/file_encryptor.h"
#include "write/leaf_spec.h"
#include "write/shredder.h"

#ifndef PQSIFT_VERSION
#define PQSIFT_VERSION "0.0.0"
#endif

namespace pqsift {

namespace {

constexpr uint8_t kMagic[4] = {'P', 'A', 'R', '1'};

// The page indexes of one chunk until they are written before the footer.
struct PendingIndex {
  size_t row_group = 0;
  size_t column = 0;
  std::optional<std::string> column_index;  // encoded
  format::OffsetIndex offset_index;         // absolute offsets
};

// A chunk's bloom filter (header + bitset) until it is written.
struct PendingBloomFilter {
  size_t row_group = 0;
  size_t column = 0;
  std::vector<uint8_t> bytes;
};

constexpr size_t kMaxHeldBloomBytes = size_t{64} << 20;

Status CheckOptions(const WriterOptions& o) {
  if (o.row_group_rows < 1 || o.page_rows < 1 || o.page_bytes < 1 || o.dictionary_page_bytes < 1) {
    return Status::InvalidArgument(
        "row_group_rows, page_rows, page_bytes and dictionary_page_bytes must be at least 1");
  }
  if (o.page_rows > INT32_MAX) {
    return Status::InvalidArgument("page_rows must be below 2^31 (a page header counts in int32)");
  }
  if (o.statistics_truncate_bytes < 0) {
    return Status::InvalidArgument("statistics_truncate_bytes must not be negative");
  }
  for (const auto& [name, bloom] : o.bloom_filters) {
    // Written as a negation so that NaN fails too.
    if (!(bloom.fpp > 0 && bloom.fpp < 1) || bloom.ndv < 0) {
      return Status::InvalidArgument("bloom filter of column '" + name +
                                     "': fpp must lie in (0, 1) and ndv must not be negative");
    }
  }
  PQSIFT_RETURN_IF_ERROR(compression::CheckCompressionLevel(o.compression, o.compression_level));
  // An empty page proves the codec can be written at all (LZ4 and LZO cannot).
  std::vector<uint8_t> probe;
  return compression::Compress(o.compression, o.compression_level, {}, probe);
}

}  // namespace

struct ParquetWriter::State {
  std::unique_ptr<WritableFile> file;
  std::shared_ptr<const BatchSchema> schema;
  WriterOptions options;
  write::ChunkOptions chunk_options;
  std::vector<write::ColumnPlan> columns;      // one per field
  std::vector<const write::LeafPlan*> leaves;  // every field's leaves, in schema order
  std::vector<size_t> first_leaf;              // per field: its first leaf's index

  std::vector<std::unique_ptr<write::ColumnChunkWriter>> chunks;  // the open row group, per leaf
  write::ShreddedLeaf shredded;  // reused for every leaf of every nested column
  int64_t row_group_rows = 0;
  int64_t rows = 0;
  std::vector<RecordBatch> pending;  // with sort_by: the open row group's rows, unsorted
  std::vector<RowGroup> row_groups;
  std::vector<PendingIndex> indexes;
  std::vector<PendingBloomFilter> bloom_filters;
  size_t bloom_filter_bytes = 0;                    // held in bloom_filters
  std::deque<std::string> strings;                  // bytes the footer's views point to
  std::unique_ptr<write::FileEncryptor> encryptor;  // null: a plaintext file
  Status error;                                     // sticky: the first failure
  bool closed = false;

  Status StartRowGroup() {
    chunks.clear();
    const size_t ordinal = row_groups.size();
    if (encryptor && ordinal > 32767) {
      return Status::InvalidArgument(
          "an encrypted file holds at most 32,767 row groups (module AADs count them in 2 "
          "bytes): raise row_group_rows");
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      const write::LeafPlan* leaf = leaves[i];
      write::ChunkOptions column = chunk_options;
      if (encryptor) {
        column.encryptor = encryptor->Column(i);
        column.row_group_ordinal = static_cast<int32_t>(ordinal);
        column.column_ordinal = static_cast<int32_t>(i);
      }
      if (auto e = options.column_encodings.find(leaf->path); e != options.column_encodings.end()) {
        column.encoding = e->second;
      }
      if (auto b = options.bloom_filters.find(leaf->path); b != options.bloom_filters.end()) {
        column.bloom_filter = b->second;
      }
      auto chunk = write::ColumnChunkWriter::Make(leaf->spec, leaf->max_definition_level,
                                                  leaf->max_repetition_level, column);
      if (!chunk.ok()) return chunk.status().WithContext("column '" + leaf->path + "'");
      chunks.push_back(std::move(*chunk));
    }
    row_group_rows = 0;
    return Status::OK();
  }

  bool HasLeaf(const std::string& path) const {
    return std::any_of(leaves.begin(), leaves.end(),
                       [&](const write::LeafPlan* leaf) { return leaf->path == path; });
  }

  // Rows [offset, offset + length) of field c's column into its leaves' chunks.
  Status WriteColumn(size_t c, const Array& column, int64_t offset, int64_t length) {
    if (column.type->id == TypeId::kDictionary) {
      // The file stores the values, and dictionary-encodes them itself (ChunkOptions::dictionary).
      // The indices are the caller's: checked before they are followed.
      PQSIFT_ASSIGN_OR_RETURN(auto part, Slice(column, offset, length));
      Status valid = ValidateArray(*part);
      if (!valid.ok()) return Status::InvalidArgument(valid.message());
      PQSIFT_ASSIGN_OR_RETURN(auto values, DecodeDictionary(*part));
      return WriteColumn(c, *values, 0, length);
    }
    const write::ColumnPlan& plan = columns[c];
    if (plan.leaves.size() == 1 && plan.leaves[0].is_flat()) {
      return chunks[first_leaf[c]]->Write(column, offset, length);
    }
    for (size_t i = 0; i < plan.leaves.size(); ++i) {
      PQSIFT_RETURN_IF_ERROR(write::Shred(plan.leaves[i], column, offset, length, shredded));
      PQSIFT_RETURN_IF_ERROR(chunks[first_leaf[c] + i]->WriteShredded(shredded));
    }
    return Status::OK();
  }

  Status Append(std::span<const uint8_t> bytes) { return file->Append(bytes); }

  // The encryptor of chunk (row group g, leaf c)'s modules; null when it is plaintext.
  const crypto::ModuleEncryptor* ColumnEncryptor(size_t c) const {
    return encryptor ? encryptor->Column(c).get() : nullptr;
  }
  // `bytes` as module `type` of chunk (g, c): returned as they are for a plaintext chunk.
  Result<std::vector<uint8_t>> Module(crypto::ModuleType type, size_t g, size_t c,
                                      std::span<const uint8_t> bytes) const {
    const crypto::ModuleEncryptor* e = ColumnEncryptor(c);
    if (e == nullptr) return std::vector<uint8_t>(bytes.begin(), bytes.end());
    std::vector<uint8_t> out;
    PQSIFT_RETURN_IF_ERROR(
        e->Encrypt({type, static_cast<int32_t>(g), static_cast<int32_t>(c), 0}, bytes, out));
    return out;
  }

  Status FlushRowGroup();
  Status SortAndFlush();
  Status WriteBloomFilters();
  Status WritePageIndexes();
  Status WriteFooter();
};

Status ParquetWriter::State::FlushRowGroup() {
  RowGroup& rg = row_groups.emplace_back();
  rg.num_rows = row_group_rows;
  rg.file_offset = static_cast<int64_t>(file->position());
  if (row_groups.size() <= 32768) rg.ordinal = static_cast<int16_t>(row_groups.size() - 1);
  int64_t compressed = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    write::FinishedChunk done;
    PQSIFT_RETURN_IF_ERROR(chunks[c]->Finish(done, strings));
    chunks[c].reset();  // its buffers are in `done` now; free the rest
    const auto start = static_cast<int64_t>(file->position());
    PQSIFT_RETURN_IF_ERROR(Append(done.dictionary_page));
    for (const std::vector<uint8_t>& page : done.data_pages) PQSIFT_RETURN_IF_ERROR(Append(page));

    if (done.sorted && leaves[c]->is_flat()) {
      // Each listed column never decreases (or increases) from row to row, so the rows are
      // sorted by all of them together, in any order of listing.
      SortingColumn sorted = *done.sorted;
      sorted.column_idx = static_cast<int32_t>(c);
      if (!rg.sorting_columns) rg.sorting_columns.emplace();
      rg.sorting_columns->push_back(sorted);
    }
    ColumnChunk& chunk = rg.columns.emplace_back();
    chunk.meta_data = std::move(done.metadata);
    ColumnMetaData& m = *chunk.meta_data;
    m.path_in_schema.assign(leaves[c]->path_parts.begin(), leaves[c]->path_parts.end());
    m.data_page_offset += start;
    if (m.dictionary_page_offset) *m.dictionary_page_offset += start;
    chunk.file_offset = start;
    rg.total_byte_size += m.total_uncompressed_size;
    compressed += m.total_compressed_size;

    if (options.page_index) {
      PendingIndex& index = indexes.emplace_back();
      index.row_group = row_groups.size() - 1;
      index.column = c;
      index.column_index = std::move(done.column_index);
      index.offset_index.page_locations = std::move(done.pages);
      index.offset_index.unencoded_byte_array_data_bytes = std::move(done.page_unencoded_bytes);
      for (format::PageLocation& p : index.offset_index.page_locations) p.offset += start;
    }
    if (!done.bloom_filter.empty()) {
      bloom_filter_bytes += done.bloom_filter.size();
      bloom_filters.push_back({row_groups.size() - 1, c, std::move(done.bloom_filter)});
    }
  }
  rg.total_compressed_size = compressed;
  if (bloom_filter_bytes > kMaxHeldBloomBytes) return WriteBloomFilters();
  return Status::OK();
}

Status ParquetWriter::State::WriteBloomFilters() {
  for (PendingBloomFilter& bloom : bloom_filters) {
    ColumnMetaData& m = *row_groups[bloom.row_group].columns[bloom.column].meta_data;
    m.bloom_filter_offset = static_cast<int64_t>(file->position());
    if (ColumnEncryptor(bloom.column) != nullptr) {
      // Two modules: the header, then the bitset (Encryption.md 4.4.2's types 8 and 9).
      PQSIFT_ASSIGN_OR_RETURN(format::BloomFilterLayout layout,
                              format::DecodeBloomFilterLayout(bloom.bytes));
      std::span<const uint8_t> all(bloom.bytes);
      PQSIFT_ASSIGN_OR_RETURN(std::vector<uint8_t> header,
                              Module(crypto::ModuleType::kBloomFilterHeader, bloom.row_group,
                                     bloom.column, all.first(layout.header_size)));
      PQSIFT_ASSIGN_OR_RETURN(std::vector<uint8_t> bitset,
                              Module(crypto::ModuleType::kBloomFilterBitset, bloom.row_group,
                                     bloom.column, all.subspan(layout.header_size)));
      bloom.bytes = std::move(header);
      bloom.bytes.insert(bloom.bytes.end(), bitset.begin(), bitset.end());
    }
    m.bloom_filter_length = static_cast<int32_t>(bloom.bytes.size());  // at most 128 MiB + header
    PQSIFT_RETURN_IF_ERROR(Append(bloom.bytes));
  }
  bloom_filters.clear();
  bloom_filter_bytes = 0;
  return Status::OK();
}

Status ParquetWriter::State::SortAndFlush() {
  std::vector<SortKey> keys;
  std::vector<SortingColumn> declared;
  for (const WriterOptions::SortBy& by : options.sort_by) {
    size_t c = 0;
    while (schema->fields[c].name != by.column) ++c;  // Open checked that it exists
    SortKey& key = keys.emplace_back();
    for (const RecordBatch& part : pending) key.chunks.push_back(part.columns[c]);
    key.descending = by.descending;
    key.nulls_first = by.nulls_first;
    declared.push_back({static_cast<int32_t>(c), by.descending, by.nulls_first});
  }
  std::vector<RowRef> rows;
  rows.reserve(static_cast<size_t>(row_group_rows));
  for (size_t p = 0; p < pending.size(); ++p) {
    for (int64_t r = 0; r < pending[p].num_rows; ++r) rows.push_back({static_cast<uint32_t>(p), r});
  }
  PQSIFT_RETURN_IF_ERROR(SortRows(keys, rows));
  // Column by column, in slices, so that only one slice of sorted values exists at a time.
  // (Open allows sorting only when every column is flat: chunk c is field c.)
  constexpr size_t kSlice = size_t{64} * 1024;
  for (size_t c = 0; c < chunks.size(); ++c) {
    std::vector<std::shared_ptr<Array>> parts;
    for (const RecordBatch& part : pending) parts.push_back(part.columns[c]);
    for (size_t at = 0; at < rows.size(); at += kSlice) {
      std::vector<RowRef> slice(
          rows.begin() + static_cast<ptrdiff_t>(at),
          rows.begin() + static_cast<ptrdiff_t>(std::min(rows.size(), at + kSlice)));
      PQSIFT_ASSIGN_OR_RETURN(auto sorted, TakeRows(parts, slice));
      Status st = chunks[c]->Write(*sorted, 0, sorted->length);
      if (!st.ok()) return st.WithContext("column '" + schema->fields[c].name + "'");
    }
  }
  pending.clear();
  PQSIFT_RETURN_IF_ERROR(FlushRowGroup());
  // The rows are in the order of the sort keys: that, not what was seen per column, is declared.
  row_groups.back().sorting_columns = std::move(declared);
  return Status::OK();
}

Status ParquetWriter::State::WritePageIndexes() {
  // All column indexes, then all offset indexes (PageIndex.md), each located by its chunk.
  for (PendingIndex& index : indexes) {
    if (!index.column_index) continue;
    ColumnChunk& chunk = row_groups[index.row_group].columns[index.column];
    const std::string& plain = *index.column_index;
    PQSIFT_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                            Module(crypto::ModuleType::kColumnIndex, index.row_group, index.column,
                                   {reinterpret_cast<const uint8_t*>(plain.data()), plain.size()}));
    chunk.column_index_offset = static_cast<int64_t>(file->position());
    chunk.column_index_length = static_cast<int32_t>(bytes.size());
    PQSIFT_RETURN_IF_ERROR(Append(bytes));
  }
  for (PendingIndex& index : indexes) {
    std::string plain = format::MetadataEncoder().OffsetIndex(index.offset_index).Take();
    ColumnChunk& chunk = row_groups[index.row_group].columns[index.column];
    PQSIFT_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                            Module(crypto::ModuleType::kOffsetIndex, index.row_group, index.column,
                                   {reinterpret_cast<const uint8_t*>(plain.data()), plain.size()}));
    chunk.offset_index_offset = static_cast<int64_t>(file->position());
    chunk.offset_index_length = static_cast<int32_t>(bytes.size());
    PQSIFT_RETURN_IF_ERROR(Append(bytes));
  }
  return Status::OK();
}

Status ParquetWriter::State::WriteFooter() {
  FileMetaData footer;
  footer.version = 1;  // parquet.thrift: writers should write 1
  SchemaElement& root = footer.schema.emplace_back();
  root.name = "schema";
  root.num_children = static_cast<int32_t>(columns.size());
  for (const write::ColumnPlan& column : columns) {
    footer.schema.insert(footer.schema.end(), column.elements.begin(), column.elements.end());
  }
  footer.num_rows = rows;
  footer.row_groups = row_groups;
  for (const auto& [key, value] : options.key_value_metadata) {
    footer.key_value_metadata.push_back({key, value});
  }
  footer.created_by = options.created_by.empty()
                          ? std::string_view(strings.emplace_back("pqsift version " PQSIFT_VERSION))
                          : std::string_view(options.created_by);
  footer.column_orders.emplace(leaves.size(), ColumnOrder::kTypeDefined);

  if (encryptor) {
    // Every offset is known now: each encrypted chunk's metadata is final.
    for (size_t g = 0; g < footer.row_groups.size(); ++g) {
      for (size_t c = 0; c < footer.row_groups[g].columns.size(); ++c) {
        PQSIFT_RETURN_IF_ERROR(encryptor->FinishChunk(static_cast<int32_t>(g), c,
                                                      footer.row_groups[g].columns[c], strings));
      }
    }
    PQSIFT_ASSIGN_OR_RETURN(std::vector<uint8_t> tail, encryptor->Footer(footer));
    return Append(tail);
  }
  std::string bytes = format::MetadataEncoder().FileMetaData(footer).Take();
  const auto length = static_cast<uint32_t>(bytes.size());
  uint8_t trailer[8];
  for (int i = 0; i < 4; ++i) trailer[i] = static_cast<uint8_t>(length >> (8 * i));
  std::copy(kMagic, kMagic + 4, trailer + 4);
  PQSIFT_RETURN_IF_ERROR(Append({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}));
  return Append(trailer);
}

ParquetWriter::ParquetWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(
    std::unique_ptr<WritableFile> file, std::shared_ptr<const BatchSchema> schema,
    const WriterOptions& options) {
  PQSIFT_RETURN_IF_ERROR(CheckOptions(options));
  auto state = std::make_unique<State>();
  bool all_flat = true;
  for (const Field& field : schema->fields) {
    // A dictionary column is stored as its values (WriteColumn).
    auto plan = field.type->id == TypeId::kDictionary
                    ? write::PlanColumn({field.name, field.type->value_type, field.nullable})
                    : write::PlanColumn(field);
    if (!plan.ok()) return plan.status().WithContext("column '" + field.name + "'");
    all_flat &= plan->leaves.size() == 1 && plan->leaves[0].is_flat();
    state->columns.push_back(std::move(*plan));
  }
  for (const write::ColumnPlan& column : state->columns) {
    state->first_leaf.push_back(state->leaves.size());
    for (const write::LeafPlan& leaf : column.leaves) state->leaves.push_back(&leaf);
  }
  state->file = std::move(file);
  state->schema = std::move(schema);
  state->options = options;
  write::ChunkOptions& c = state->chunk_options;
  c.codec = options.compression;
  c.level = options.compression_level;
  c.page_rows = options.page_rows;
  c.page_bytes = options.page_bytes;
  c.dictionary = options.dictionary;
  c.dictionary_page_bytes = options.dictionary_page_bytes;
  c.page_index = options.page_index;
  c.truncate_bytes = options.statistics_truncate_bytes;
  c.data_page_v2 = options.data_page_v2;
  c.page_checksums = options.page_checksums;
  if (options.encryption) {
    std::vector<std::string> paths;
    for (const write::LeafPlan* leaf : state->leaves) paths.push_back(leaf->path);
    PQSIFT_ASSIGN_OR_RETURN(state->encryptor,
                            write::FileEncryptor::Make(*options.encryption, paths));
  }
  PQSIFT_RETURN_IF_ERROR(state->Append(state->encryptor ? state->encryptor->magic()
                                                        : std::span<const uint8_t>(kMagic)));
  if (!options.sort_by.empty() && !all_flat) {
    return Status::NotSupported("sorting row groups is supported for flat columns only");
  }
  for (const WriterOptions::SortBy& by : options.sort_by) {
    bool known = false;
    for (const Field& f : state->schema->fields) known |= f.name == by.column;
    if (!known) {
      return Status::InvalidArgument("cannot sort by column '" + by.column +
                                     "', which the schema does not have");
    }
  }
  for (const auto& [name, bloom] : options.bloom_filters) {
    if (!state->HasLeaf(name)) {
      return Status::InvalidArgument("a bloom filter is asked for column '" + name +
                                     "', which the schema does not have");
    }
  }
  for (const auto& [name, encoding] : options.column_encodings) {
    if (!state->HasLeaf(name))
      return Status::InvalidArgument("an encoding is given for column '" + name +
                                     "', which the schema does not have");
  }
  PQSIFT_RETURN_IF_ERROR(state->StartRowGroup());
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(state)));
}

Status ParquetWriter::Write(const RecordBatch& batch) {
  State& s = *state_;
  PQSIFT_RETURN_IF_ERROR(s.error);
  if (s.closed) return Status::InvalidArgument("Write after Close");
  if (batch.columns.size() != s.schema->fields.size()) {
    return Status::InvalidArgument("batch has " + std::to_string(batch.columns.size()) +
                                   " columns, the file's schema " +
                                   std::to_string(s.schema->fields.size()));
  }
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    const Field& field = s.schema->fields[c];
    const Array& column = *batch.columns[c];
    if (!(*column.type == *field.type)) {
      return Status::InvalidArgument("column '" + field.name + "' is " + column.type->ToString() +
                                     " in the batch, " + field.type->ToString() + " in the file");
    }
    if (column.length != batch.num_rows) {
      return Status::InvalidArgument("column '" + field.name + "' has " +
                                     std::to_string(column.length) + " rows, the batch " +
                                     std::to_string(batch.num_rows));
    }
    if (!field.nullable && column.null_count > 0) {
      return Status::InvalidArgument("column '" + field.name + "' is not nullable but has " +
                                     std::to_string(column.null_count) + " nulls");
    }
    PQSIFT_RETURN_IF_ERROR(ValidateArrayLayout(column));
  }
  int64_t done = 0;
  while (done < batch.num_rows) {
    const int64_t take =
        std::min(batch.num_rows - done, s.options.row_group_rows - s.row_group_rows);
    if (!s.options.sort_by.empty()) {
      // Held until the row group is complete, then sorted (SortAndFlush).
      RecordBatch& part = s.pending.emplace_back();
      part.num_rows = take;
      for (const auto& column : batch.columns) {
        PQSIFT_ASSIGN_OR_RETURN(auto slice, Slice(*column, done, take));
        part.columns.push_back(std::move(slice));
      }
    } else {
      for (size_t c = 0; c < batch.columns.size(); ++c) {
        Status st = s.WriteColumn(c, *batch.columns[c], done, take);
        if (!st.ok()) return s.error = st.WithContext("column '" + s.schema->fields[c].name + "'");
      }
    }
    done += take;
    s.row_group_rows += take;
    s.rows += take;
    if (s.row_group_rows == s.options.row_group_rows) {
      Status st = s.pending.empty() ? s.FlushRowGroup() : s.SortAndFlush();
      if (st.ok()) st = s.StartRowGroup();
      if (!st.ok()) return s.error = st;
    }
  }
  return Status::OK();
}

Status ParquetWriter::Close() {
  State& s = *state_;
  PQSIFT_RETURN_IF_ERROR(s.error);
  if (s.closed) return Status::InvalidArgument("Close called twice");
  s.closed = true;
  if (s.row_group_rows > 0) {
    PQSIFT_RETURN_IF_ERROR(s.error = s.pending.empty() ? s.FlushRowGroup() : s.SortAndFlush());
  }
  PQSIFT_RETURN_IF_ERROR(s.error = s.WriteBloomFilters());
  PQSIFT_RETURN_IF_ERROR(s.error = s.WritePageIndexes());
  PQSIFT_RETURN_IF_ERROR(s.error = s.WriteFooter());
  return s.error = s.file->Close();
}

int64_t ParquetWriter::num_rows() const { return state_->rows; }
int64_t ParquetWriter::num_row_groups() const {
  return static_cast<int64_t>(state_->row_groups.size());
}

}  // namespace pqsift
