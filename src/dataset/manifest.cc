#include "dataset/manifest.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

#include "arrow/builder.h"
#include "column/arrow_type.h"
#include "dataset/footer_cache.h"
#include "dataset/unify.h"
#include "expr/binder.h"
#include "expr/substitute.h"
#include "format/metadata_encoder.h"
#include "io/open_files.h"
#include "pqsift/writer.h"
#include "prune/proof.h"
#include "prune/statistics.h"

namespace pqsift {
namespace dataset {
namespace {

constexpr std::string_view kSchemaKey = "pqsift.schema";

// A bound as bytes: its kind, then the value (int128 and double little-endian, bytes raw).
std::string EncodeValue(const expr::Value& v) {
  std::string out(1, static_cast<char>(v.kind));
  switch (v.kind) {
    case expr::Value::Kind::kBool: out.push_back(v.b ? 1 : 0); break;
    case expr::Value::Kind::kInt:
      out.append(reinterpret_cast<const char*>(&v.i), sizeof(v.i));
      break;
    case expr::Value::Kind::kFloat:
      out.append(reinterpret_cast<const char*>(&v.f), sizeof(v.f));
      break;
    case expr::Value::Kind::kBytes: out += v.bytes; break;
    case expr::Value::Kind::kNull: break;
  }
  return out;
}

std::optional<expr::Value> DecodeValue(std::string_view s) {
  if (s.empty()) return std::nullopt;
  auto kind = static_cast<expr::Value::Kind>(s[0]);
  std::string_view v = s.substr(1);
  switch (kind) {
    case expr::Value::Kind::kBool:
      if (v.size() != 1) return std::nullopt;
      return expr::Value::Bool(v[0] != 0);
    case expr::Value::Kind::kInt: {
      expr::int128 i = 0;
      if (v.size() != sizeof(i)) return std::nullopt;
      std::memcpy(&i, v.data(), sizeof(i));
      return expr::Value::Int(i);
    }
    case expr::Value::Kind::kFloat: {
      double f = 0;
      if (v.size() != sizeof(f)) return std::nullopt;
      std::memcpy(&f, v.data(), sizeof(f));
      return expr::Value::Float(f);
    }
    case expr::Value::Kind::kBytes: return expr::Value::Bytes(std::string(v));
    default: return std::nullopt;
  }
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::optional<std::string> Unhex(std::string_view hex) {
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = digit(hex[i]);
    int lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string RelativeTo(const std::string& root, const std::string& path) {
  if (root == "." && !path.starts_with('/')) return path.starts_with("./") ? path.substr(2) : path;
  std::string prefix = root.ends_with('/') ? root : root + "/";
  return path.starts_with(prefix) ? path.substr(prefix.size()) : path;
}

std::string ManifestPath(const Dataset& dataset) {
  if (!PathScheme(dataset.root()).empty()) return dataset.root() + "/" + std::string(kManifestName);
  return (std::filesystem::path(dataset.root()) / kManifestName).string();
}

// The bounds of `leaf` over the whole file: the row groups' bounds (trust rules) merged.
prune::ColumnBounds FileBounds(const ParquetMetadata& md, int32_t leaf) {
  prune::ColumnBounds out;
  out.num_rows = md.num_rows();
  out.may_contain_nan = false;
  const ColumnDescriptor& descriptor = md.schema().columns()[leaf];
  auto type = column::ArrowTypeForLeaf(descriptor);
  if (!type.ok()) {
    out.may_contain_nan = true;
    return out;
  }
  bool min_known = true, max_known = true, nulls_known = true;
  int64_t nulls = 0;
  for (const RowGroup& rg : md.file().row_groups) {
    if (rg.num_rows == 0) continue;
    prune::ColumnBounds b;
    b.num_rows = rg.num_rows;
    if (static_cast<size_t>(leaf) < rg.columns.size() && rg.columns[leaf].meta_data) {
      b = prune::BoundsFromChunk(descriptor, **type, *rg.columns[leaf].meta_data, rg.num_rows);
    }
    out.may_contain_nan = out.may_contain_nan || b.may_contain_nan;
    if (b.null_count) {
      nulls += *b.null_count;
    } else {
      nulls_known = false;
    }
    if (b.null_count && *b.null_count == rg.num_rows) continue;  // no values: no bounds needed
    if (b.min && (!out.min || expr::Compare(*b.min, *out.min) < 0)) out.min = b.min;
    if (b.max && (!out.max || expr::Compare(*b.max, *out.max) > 0)) out.max = b.max;
    min_known = min_known && b.min.has_value();
    max_known = max_known && b.max.has_value();
  }
  if (!min_known) out.min.reset();
  if (!max_known) out.max.reset();
  if (nulls_known) out.null_count = nulls;
  return out;
}

struct ManifestEntry {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t num_rows = 0;
  std::map<std::string, prune::ColumnBounds> columns;
};

struct Manifest {
  std::shared_ptr<const ParquetMetadata> schema;
  std::map<std::string, ManifestEntry> files;
};

std::string_view BinaryAt(const Array& a, int64_t i) {
  const int64_t* offsets = a.buffers[1]->as<int64_t>() + a.offset;
  return {reinterpret_cast<const char*>(a.buffers[2]->data()) + offsets[i],
          static_cast<size_t>(offsets[i + 1] - offsets[i])};
}
int64_t Int64At(const Array& a, int64_t i) { return a.buffers[1]->as<int64_t>()[a.offset + i]; }

Result<Manifest> ReadManifest(const std::string& path, const std::shared_ptr<Storage>& storage) {
  ScanOptions options;
  options.threads = 1;
  options.open.storage = storage;
  options.columns = {"path", "size", "mtime_ns",   "num_rows", "column",
                     "min",  "max",  "null_count", "nan"};
  PQSIFT_ASSIGN_OR_RETURN(auto scanner, Scanner::Open(std::vector<std::string>{path}, options));
  // Column types as WriteManifest writes them; anything else is not a manifest we can read.
  const TypeId kTypes[] = {TypeId::kLargeString, TypeId::kInt64,       TypeId::kInt64,
                           TypeId::kInt64,       TypeId::kLargeString, TypeId::kLargeBinary,
                           TypeId::kLargeBinary, TypeId::kInt64,       TypeId::kBoolean};
  const auto& fields = scanner->schema()->fields;
  for (size_t k = 0; k < fields.size(); ++k) {
    if (fields[k].type->id != kTypes[k]) {
      return Status::Corruption(path + ": column '" + fields[k].name + "' is " +
                                fields[k].type->ToString() + ", not a manifest's");
    }
  }
  Manifest out;
  // The schema record, from the manifest's own footer.
  PQSIFT_ASSIGN_OR_RETURN(auto file, storage->Open(path));
  PQSIFT_ASSIGN_OR_RETURN(auto md, ReadParquetMetadata(*file));
  for (const KeyValue& kv : md->file().key_value_metadata) {
    if (kv.key != kSchemaKey || !kv.value) continue;
    auto bytes = Unhex(*kv.value);
    if (!bytes) return Status::Corruption(path + ": bad schema record");
    Buffer footer(bytes->size());
    std::memcpy(footer.mutable_data(), bytes->data(), bytes->size());
    PQSIFT_ASSIGN_OR_RETURN(
        out.schema,
        DecodeParquetMetadata(path + " (dataset schema)", bytes->size() + 12, std::move(footer)));
  }
  if (!out.schema) return Status::Corruption(path + ": no schema record");
  for (;;) {
    PQSIFT_ASSIGN_OR_RETURN(auto batch, scanner->Next());
    if (!batch) break;
    const auto& c = batch->columns;
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      if (!c[0]->IsValid(r) || !c[4]->IsValid(r)) continue;
      ManifestEntry& e = out.files[std::string(BinaryAt(*c[0], r))];
      e.size = static_cast<uint64_t>(Int64At(*c[1], r));
      e.mtime_ns = Int64At(*c[2], r);
      e.num_rows = Int64At(*c[3], r);
      prune::ColumnBounds& b = e.columns[std::string(BinaryAt(*c[4], r))];
      b.num_rows = e.num_rows;
      if (c[5]->IsValid(r)) b.min = DecodeValue(BinaryAt(*c[5], r));
      if (c[6]->IsValid(r)) b.max = DecodeValue(BinaryAt(*c[6], r));
      if (c[7]->IsValid(r)) b.null_count = Int64At(*c[7], r);
      const Array& nan = *c[8];
      b.may_contain_nan =
          !nan.IsValid(r) ||
          ((nan.buffers[1]->data()[(nan.offset + r) / 8] >> ((nan.offset + r) % 8)) & 1);
    }
  }
  return out;
}

}  // namespace

Status PruneWithManifest(const Dataset& dataset, const std::string& filter,
                         const std::vector<PartitionField>& partitions,
                         std::string_view row_index_column,
                         const std::vector<std::vector<expr::Value>>& partition_values,
                         std::vector<bool>* keep, std::vector<std::string>* proven,
                         scan::DatasetCounts* counts,
                         std::shared_ptr<const ParquetMetadata>* schema_out,
                         std::vector<int64_t>* fresh_rows) {
  if (dataset.root().empty()) return Status::OK();
  std::string path = ManifestPath(dataset);
  std::error_code ec;
  const bool remote = !PathScheme(path).empty();
  if (!remote && !std::filesystem::exists(path, ec)) return Status::OK();
  if (remote && !dataset.may_have_manifest()) return Status::OK();
  // A remote manifest is looked for by reading it: absent, the read fails (no evidence).
  Result<Manifest> manifest = ReadManifest(path, dataset.options().storage);
  if (!manifest.ok()) return Status::OK();  // evidence we cannot read is no evidence
  const auto& files = dataset.files();
  bool all_fresh = manifest->files.size() == files.size();
  for (size_t f = 0; f < files.size(); ++f) {
    auto found = manifest->files.find(RelativeTo(dataset.root(), files[f].path));
    bool fresh = found != manifest->files.end() && found->second.size == files[f].size &&
                 found->second.mtime_ns == files[f].mtime_ns;
    if (fresh) (*fresh_rows)[f] = found->second.num_rows;
    all_fresh = all_fresh && fresh;
  }
  std::vector<PartitionField> fields = partitions;
  if (!row_index_column.empty()) {
    fields.push_back({std::string(row_index_column), PartitionType::kInt64});
  }
  auto schema = UnifySchemas({&manifest->schema, 1}, fields);
  if (!schema.ok()) return Status::OK();
  if (all_fresh) *schema_out = manifest->schema;
  if (filter.empty()) return Status::OK();
  auto bound = expr::BindFilter(filter, **schema);
  if (!bound.ok()) return Status::OK();  // the scan reports the error with the files' schemas
  for (size_t f = 0; f < files.size(); ++f) {
    if (!(*keep)[f]) continue;
    auto found = manifest->files.find(RelativeTo(dataset.root(), files[f].path));
    if (found == manifest->files.end()) continue;
    const ManifestEntry& entry = found->second;
    if (entry.size != files[f].size || entry.mtime_ns != files[f].mtime_ns) continue;  // stale
    if (entry.num_rows == 0) {
      (*keep)[f] = false;
      ++counts->files_skipped_by_manifest;
      continue;
    }
    std::vector<std::optional<expr::Value>> constants;
    prune::StatisticsTable table;
    table.containers = 1;
    for (const expr::ColumnRef& ref : bound->columns) {
      std::optional<expr::Value> constant;
      for (size_t p = 0; p < partitions.size(); ++p) {
        if (partitions[p].name == ref.path) constant = partition_values[f][p];
      }
      if (!row_index_column.empty() && ref.path == row_index_column) {
        // The row index: every position of the file, from the manifest's row count.
        prune::ColumnBounds rows;
        rows.min = expr::Value::Int(0);
        rows.max = expr::Value::Int(entry.num_rows - 1);
        rows.null_count = 0;
        rows.num_rows = entry.num_rows;
        rows.may_contain_nan = false;
        table.bounds.push_back({std::move(rows)});
        constants.emplace_back();
        continue;
      }
      auto column = entry.columns.find(ref.path);
      if (!constant && column == entry.columns.end()) constant = expr::Value::Null();
      if (!constant) table.bounds.push_back({column->second});
      constants.push_back(std::move(constant));
    }
    prune::Outcomes o = prune::Prove(expr::SubstituteConstants(*bound, constants), table)[0];
    if (prune::CannotMatch(o)) {
      (*keep)[f] = false;
      ++counts->files_skipped_by_manifest;
    } else if (prune::FullyMatches(o) && (*proven)[f].empty()) {
      (*proven)[f] = "manifest";
    }
  }
  return Status::OK();
}

}  // namespace dataset

Status WriteManifest(const Dataset& dataset, const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  // A remote dataset's manifest is written here and copied beside its files: paths relative to
  // its root.
  if (!PathScheme(dataset.root()).empty()) folder = dataset.root();
  std::shared_ptr<Storage> storage = dataset.options().storage;
  if (!storage) storage = Storage::Default();
  auto counters = std::make_shared<IoCounters>();
  std::vector<std::shared_ptr<const ParquetMetadata>> footers;
  uint64_t footers_read = 0;
  BinaryArrayBuilder paths(LargeUtf8()), columns(LargeUtf8()), mins(LargeBinary()),
      maxes(LargeBinary());
  FixedWidthArrayBuilder<int64_t> sizes(Int64()), mtimes(Int64()), rows(Int64()), nulls(Int64());
  FixedWidthArrayBuilder<bool> nans(Boolean());
  std::vector<FileInfo> infos;
  for (const DatasetFile& f : dataset.files()) {
    infos.push_back({f.path, f.size, f.mtime_ns, f.version, f.known});
  }
  OpenOptions open;
  open.storage = storage;
  PQSIFT_ASSIGN_OR_RETURN(auto opened,
                          io::OpenFiles(infos, open, counters, dataset.files().size() > 64));
  {
    std::vector<std::pair<const DatasetFile*, const RandomAccessFile*>> pairs;
    for (size_t i = 0; i < opened.size(); ++i) {
      pairs.emplace_back(&dataset.files()[i], opened[i].get());
    }
    dataset::PrefetchUncachedFooters(pairs, open);
  }
  for (size_t i = 0; i < dataset.files().size(); ++i) {
    const DatasetFile& f = dataset.files()[i];
    auto& file = opened[i];
    PQSIFT_ASSIGN_OR_RETURN(auto md, dataset::CachedFooter(f, *file, open, &footers_read));
    file->ReleasePrefetched();
    footers.push_back(md);
    std::string relative = dataset::RelativeTo(folder, f.path);
    const auto& leaves = md->schema().columns();
    for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      prune::ColumnBounds b = dataset::FileBounds(*md, static_cast<int32_t>(leaf));
      paths.Append(relative);
      sizes.Append(static_cast<int64_t>(file->size()));
      mtimes.Append(f.mtime_ns);
      rows.Append(md->num_rows());
      columns.Append(leaves[leaf].path);
      if (b.min)
        mins.Append(dataset::EncodeValue(*b.min));
      else
        mins.AppendNull();
      if (b.max)
        maxes.Append(dataset::EncodeValue(*b.max));
      else
        maxes.AppendNull();
      nulls.Append(b.null_count);
      nans.Append(b.may_contain_nan);
    }
  }
  PQSIFT_ASSIGN_OR_RETURN(std::vector<SchemaElement> elements, dataset::UnifiedElements(footers));
  FileMetaData schema_record;
  schema_record.version = 2;
  schema_record.schema = elements;
  std::string encoded = format::EncodeFooter(schema_record);

  auto schema = std::make_shared<BatchSchema>();
  RecordBatch batch;
  batch.schema = schema;
  auto add = [&](const char* name, std::shared_ptr<Array> array) {
    schema->fields.push_back({name, array->type, true});
    batch.num_rows = array->length;
    batch.columns.push_back(std::move(array));
  };
  add("path", paths.Finish());
  add("size", sizes.Finish());
  add("mtime_ns", mtimes.Finish());
  add("num_rows", rows.Finish());
  add("column", columns.Finish());
  add("min", mins.Finish());
  add("max", maxes.Finish());
  add("null_count", nulls.Finish());
  add("nan", nans.Finish());
  WriterOptions options;
  options.key_value_metadata.push_back({std::string(dataset::kSchemaKey), dataset::Hex(encoded)});
  // Written beside and renamed into place, so a scan never reads a half-written manifest.
  std::string temporary = path + ".tmp";
  PQSIFT_ASSIGN_OR_RETURN(auto out, OpenLocalWritableFile(temporary));
  PQSIFT_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(std::move(out), schema, options));
  PQSIFT_RETURN_IF_ERROR(writer->Write(batch));
  PQSIFT_RETURN_IF_ERROR(writer->Close());
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return Status::IOError(path + ": " + ec.message());
  return Status::OK();
}

}  // namespace pqsift
