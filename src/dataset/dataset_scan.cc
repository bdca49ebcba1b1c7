// OpenDatasetScan: what the dataset level can prove before any file is opened, then a Scanner
// over the files that remain.
//
//   Discover (paths, partition values)
//     -> PrunePartitions?    the filter's conjuncts over partition columns, decided per file
//                            from its path alone (no I/O); skipped when the filter has none
//     -> PruneWithManifest?  file-level statistics from a fresh manifest (one small read)
//     -> LoadFooters         the files that remain (from the footer cache when fresh)
//     -> UnifySchemas        their schemas by name, then the partition columns
//     -> Scanner::Open       as over any files: row groups, pages, decoding
#include <algorithm>
#include <cctype>
#include <optional>

#include "dataset/footer_cache.h"
#include "dataset/manifest.h"
#include "dataset/partition.h"
#include "dataset/splits.h"
#include "dataset/unify.h"
#include "expr/binder.h"
#include "expr/parser.h"
#include "expr/substitute.h"
#include "io/open_files.h"
#include "pqsift/dataset.h"
#include "pqsift/storage.h"
#include "prune/proof.h"
#include "scan/scan_input.h"
#include "scan/scanner_internals.h"
#include "scan/thread_pool.h"

namespace pqsift {
namespace {

void Conjuncts(const expr::AstNode& node, std::vector<const expr::AstNode*>* out) {
  if (node.kind == expr::AstNode::Kind::kAnd) {
    for (const auto& child : node.children) Conjuncts(*child, out);
  } else {
    out->push_back(&node);
  }
}

void ColumnNames(const expr::AstNode& node, std::vector<std::string>* out) {
  if (node.kind == expr::AstNode::Kind::kColumn && !node.path.empty()) out->push_back(node.path[0]);
  for (const auto& child : node.children) ColumnNames(*child, out);
}

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Whether every top-level name the scan refers to is a field of `schema`.
bool HasAll(const Schema& schema, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    bool found = false;
    for (int32_t child : schema.root().children) {
      found = found || SameName(schema.nodes()[child].name, name);
    }
    if (!found) return false;
  }
  return true;
}

// Per file, whether the filter's conjuncts over partition columns alone allow a match, and
// whether they prove every row matches (only when they are the whole filter).
struct PartitionProof {
  std::vector<bool> may_match;
  std::vector<bool> fully_matched;
};

Result<PartitionProof> PrunePartitions(const expr::AstNode& ast, const std::string& text,
                                       const Schema& partition_schema,
                                       const std::vector<std::string>& partition_names,
                                       const std::vector<std::vector<expr::Value>>& values) {
  std::vector<const expr::AstNode*> conjuncts;
  Conjuncts(ast, &conjuncts);
  std::vector<expr::BoundFilter> bound;
  bool whole = true;
  for (const expr::AstNode* c : conjuncts) {
    auto b = expr::BindFilter(*c, text, partition_schema);
    if (b.ok()) {
      bound.push_back(std::move(b).value());
    } else {
      whole = false;  // refers to file columns (or does not bind): the scanner decides
    }
  }
  PartitionProof out;
  out.may_match.assign(values.size(), true);
  out.fully_matched.assign(values.size(), false);
  for (size_t f = 0; f < values.size(); ++f) {
    bool all_true = whole;
    for (const expr::BoundFilter& filter : bound) {
      std::vector<std::optional<expr::Value>> constants;
      for (const expr::ColumnRef& ref : filter.columns) {
        for (size_t p = 0; p < partition_names.size(); ++p) {
          if (partition_names[p] == ref.path) constants.emplace_back(values[f][p]);
        }
      }
      if (constants.size() != filter.columns.size()) {
        return Status::Internal("partition filter column without a partition value");
      }
      prune::StatisticsTable table;
      table.containers = 1;
      prune::Outcomes o = prune::Prove(expr::SubstituteConstants(filter, constants), table)[0];
      if (prune::CannotMatch(o)) out.may_match[f] = false;
      all_true = all_true && prune::FullyMatches(o);
    }
    out.fully_matched[f] = out.may_match[f] && all_true && !bound.empty();
  }
  return out;
}

// What kept file `f` from being opened, for explain: its partition values ("day=2026-01-05")
// when they proved it, the manifest's statistics otherwise.
std::string UnopenedEvidence(const Dataset& dataset, size_t f, FileFate fate,
                             const std::string& proven) {
  if (fate == FileFate::kSkippedByManifest) {
    return "manifest statistics: no row can satisfy the filter";
  }
  std::string values;
  for (size_t p = 0; p < dataset.partitions().size(); ++p) {
    if (!values.empty()) values += "/";
    const std::optional<std::string>& value = dataset.partition_values()[f][p];
    values += dataset.partitions()[p].name + "=" + (value ? *value : std::string("NULL"));
  }
  if (fate == FileFate::kCountedByManifest) {
    return "every row satisfies the filter (" + proven + "): rows counted from the manifest";
  }
  return values + ": no row can satisfy the filter";
}

}  // namespace

// Datasets of more files than this are read as described at `many` below.
constexpr size_t kManyFiles = 64;
constexpr uint64_t kManyFilesTailBytes = uint64_t{16} * 1024;

Result<std::unique_ptr<Scanner>> OpenDatasetScan(const Dataset& dataset, const ScanOptions& options,
                                                 const Split* split) {
  const std::vector<DatasetFile>& files = dataset.files();
  if (files.empty()) return Status::InvalidArgument("no files to scan");
  scan::ScanInput input;
  input.counts.files_total = files.size();
  std::vector<std::string> partition_names;
  for (const PartitionField& p : dataset.partitions()) partition_names.push_back(p.name);

  std::vector<std::vector<expr::Value>> values(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    for (size_t p = 0; p < partition_names.size(); ++p) {
      auto v = dataset::ParsePartitionValue(dataset.partition_values()[f][p],
                                            dataset.partitions()[p].type);
      if (!v) return Status::InvalidArgument(files[f].path + ": bad partition value");
      values[f].push_back(std::move(*v));
    }
  }

  // The scan's constant columns: the partitions, then the file name (scan/virtual_columns.h),
  // a value per file known before any footer is read, so filters on it prune files here. The
  // schema adds the row index after them.
  std::vector<PartitionField> constant_fields = dataset.partitions();
  if (!options.filename_column.empty()) {
    constant_fields.push_back({options.filename_column, PartitionType::kString});
    partition_names.push_back(options.filename_column);
    // Without user info or a query string: they may hold secrets (a presigned URL's).
    for (size_t f = 0; f < files.size(); ++f) {
      values[f].push_back(expr::Value::Bytes(RedactUrl(files[f].path)));
    }
  }
  std::vector<PartitionField> schema_fields = constant_fields;
  if (!options.row_index_column.empty()) {
    schema_fields.push_back({options.row_index_column, PartitionType::kInt64});
  }

  std::vector<std::string> names;  // top-level columns the scan refers to
  for (const std::string& c : options.columns) names.push_back(c.substr(0, c.find('.')));
  std::vector<bool> keep(files.size(), true);
  std::vector<std::string> proven(files.size());
  // Why each file left out was (for the access plan); kOpened: kept so far.
  std::vector<FileFate> fates(files.size(), FileFate::kOpened);
  if (!options.filter.empty()) {
    PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<expr::AstNode> ast, expr::Parse(options.filter));
    ColumnNames(*ast, &names);
    if (options.prune && !partition_names.empty()) {
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const Schema> partition_schema,
                              dataset::UnifySchemas({}, constant_fields));
      PQSIFT_ASSIGN_OR_RETURN(
          PartitionProof proof,
          PrunePartitions(*ast, options.filter, *partition_schema, partition_names, values));
      for (size_t f = 0; f < files.size(); ++f) {
        if (!proof.may_match[f]) {
          keep[f] = false;
          fates[f] = FileFate::kSkippedByPartition;
          ++input.counts.files_skipped_by_partition;
        } else if (proof.fully_matched[f]) {
          proven[f] = "partition values";
        }
      }
    }
  }

  std::shared_ptr<const ParquetMetadata> manifest_schema;
  std::vector<int64_t> manifest_rows(files.size(), -1);  // -1: no fresh entry
  if (dataset.options().use_manifest) {
    PQSIFT_RETURN_IF_ERROR(
        dataset::PruneWithManifest(dataset, options.prune ? options.filter : std::string(),
                                   constant_fields, options.row_index_column, values, &keep,
                                   &proven, &input.counts, &manifest_schema, &manifest_rows));
  }
  for (size_t f = 0; f < files.size(); ++f) {
    if (!keep[f] && fates[f] == FileFate::kOpened) fates[f] = FileFate::kSkippedByManifest;
  }
  if (options.count_only && split == nullptr) {
    // count(*): a file every row of which matches (no filter, or evidence proved it) and whose
    // manifest entry is fresh is counted from the manifest, never opened.
    for (size_t f = 0; f < files.size(); ++f) {
      bool all_match = options.filter.empty() || (options.prune && !proven[f].empty());
      if (!keep[f] || !all_match || manifest_rows[f] < 0) continue;
      keep[f] = false;
      fates[f] = FileFate::kCountedByManifest;
      ++input.counts.files_counted_by_manifest;
      input.counts.rows_counted_by_manifest += manifest_rows[f];
    }
  }

  // A scan keeps every file it reads open until it ends: past kManyFiles files, they hold no
  // descriptor between reads (a dataset may have more files than a process may open), and
  // their footer reads fetch less (the speculative tail is kept with each footer).
  const bool many = files.size() > kManyFiles;
  OpenOptions open = options.open;
  open.storage = dataset.options().storage;
  if (many)
    open.tail_bytes = std::min(open.tail_bytes.value_or(kManyFilesTailBytes), kManyFilesTailBytes);
  input.io = std::make_shared<IoCounters>();
  // Opens `which` in one wave per store (a remote file's first request fetches its footer),
  // then decodes their footers (from the cache when fresh) side by side on the scan's threads.
  auto load_all = [&](const std::vector<size_t>& which,
                      uint64_t* footers_read) -> Result<std::vector<scan::ScanFile>> {
    std::vector<FileInfo> infos;
    infos.reserve(which.size());
    for (size_t f : which) {
      infos.push_back(
          {files[f].path, files[f].size, files[f].mtime_ns, files[f].version, files[f].known});
    }
    auto opened = io::TryOpenFiles(infos, open, input.io, many);
    {
      std::vector<std::pair<const DatasetFile*, const RandomAccessFile*>> pairs;
      for (size_t k = 0; k < which.size(); ++k) {
        pairs.emplace_back(&files[which[k]], opened[k].ok() ? opened[k]->get() : nullptr);
      }
      dataset::PrefetchUncachedFooters(pairs, open);
    }
    std::vector<std::optional<Result<scan::ScanFile>>> loaded(which.size());
    std::vector<uint64_t> counted(which.size(), 0);
    {
      scan::ThreadPool pool(which.size() > 1 ? options.threads : 1);
      for (size_t k = 0; k < which.size(); ++k) {
        pool.Submit([&, k]() {
          if (!opened[k].ok()) {
            loaded[k].emplace(opened[k].status());
            return;
          }
          std::shared_ptr<RandomAccessFile> file = std::move(opened[k]).value();
          const size_t f = which[k];
          scan::ScanFile out;
          auto md = dataset::CachedFooter(files[f], *file, open, &counted[k]);
          file->ReleasePrefetched();
          if (!md.ok()) {
            loaded[k].emplace(md.status());
            return;
          }
          out.metadata = std::move(md).value();
          out.file = std::move(file);
          out.partition_values = values[f];
          out.source = files[f].path;
          out.fully_matched_by = proven[f];
          if (split != nullptr) {
            if (files[f].path != split->path) {
              loaded[k].emplace(Status::InvalidArgument("split file " + RedactUrl(split->path) +
                                                        " is not " + RedactUrl(files[f].path)));
              return;
            }
            auto excluded = dataset::ExcludedBySplit(*out.metadata, *split);
            if (!excluded.ok()) {
              loaded[k].emplace(excluded.status());
              return;
            }
            out.excluded_row_groups = std::move(excluded).value();
          }
          loaded[k].emplace(std::move(out));
        });
      }
    }  // joins the workers
    std::vector<scan::ScanFile> out;
    for (size_t k = 0; k < which.size(); ++k) {
      *footers_read += counted[k];
      if (!loaded[k]->ok()) return loaded[k]->status();
      out.push_back(std::move(*loaded[k]).value());
    }
    return out;
  };
  auto load = [&](size_t f) -> Result<scan::ScanFile> {
    PQSIFT_ASSIGN_OR_RETURN(auto one, load_all({f}, &input.counts.footers_read));
    return std::move(one.front());
  };
  for (size_t f = 0; f < files.size(); ++f) {
    if (keep[f]) continue;
    input.unopened.push_back({files[f].path, files[f].size, fates[f],
                              UnopenedEvidence(dataset, f, fates[f], proven[f])});
  }
  // The footers of the files that remain, kept in file order.
  std::vector<size_t> kept;
  for (size_t f = 0; f < files.size(); ++f) {
    if (keep[f]) kept.push_back(f);
  }
  PQSIFT_ASSIGN_OR_RETURN(std::vector<scan::ScanFile> opened_files,
                          load_all(kept, &input.counts.footers_read));
  std::vector<std::shared_ptr<const ParquetMetadata>> footers;
  for (scan::ScanFile& file : opened_files) {
    footers.push_back(file.metadata);
    input.files.push_back(std::move(file));
  }
  input.partition_columns = partition_names;
  if (manifest_schema) {
    // A fresh manifest records the union of every file's schema: no footer needs reading.
    PQSIFT_ASSIGN_OR_RETURN(input.schema,
                            dataset::UnifySchemas({&manifest_schema, 1}, schema_fields));
    input.footer_io = input.io->Snapshot();
    return ScannerInternals::Open(std::move(input), options);
  }
  PQSIFT_ASSIGN_OR_RETURN(input.schema, dataset::UnifySchemas(footers, schema_fields));
  // The schema comes from the files the scan reads; when pruning left out every file (then the
  // first file's footer), or the files it left out hold a column the query names (then all
  // footers), their footers join it, never their data: pruning never changes what a query
  // means.
  if (footers.empty()) {
    PQSIFT_ASSIGN_OR_RETURN(scan::ScanFile first, load(0));
    PQSIFT_ASSIGN_OR_RETURN(input.schema,
                            dataset::UnifySchemas({&first.metadata, 1}, schema_fields));
  }
  if (footers.size() < files.size() && !HasAll(*input.schema, names)) {
    std::vector<size_t> left_out;
    for (size_t f = 0; f < files.size(); ++f) {
      if (!keep[f]) left_out.push_back(f);
    }
    PQSIFT_ASSIGN_OR_RETURN(std::vector<scan::ScanFile> others,
                            load_all(left_out, &input.counts.footers_read));
    std::vector<std::shared_ptr<const ParquetMetadata>> every;
    size_t next_kept = 0, next_other = 0;
    for (size_t f = 0; f < files.size(); ++f) {
      every.push_back(keep[f] ? footers[next_kept++] : others[next_other++].metadata);
    }
    PQSIFT_ASSIGN_OR_RETURN(input.schema, dataset::UnifySchemas(every, schema_fields));
  }
  input.footer_io = input.io->Snapshot();
  return ScannerInternals::Open(std::move(input), options);
}

}  // namespace pqsift
