// pqsift._pqsift: the extension module under the Python package (python/src/pqsift). Plain
// bindings of the public C++ API, shaped for the package's Python code, which holds the
// user-facing API and its documentation: ScanHandle (one run of a scan), Batch, WriterHandle,
// and the one-off calls count, splits and inspect. Options come as dicts of plain values,
// validated by the package before they get here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arrow_capsules.h"
#include "background.h"
#include "columns.h"
#include "json_reports.h"
#include "pqsift/dataset.h"
#include "pqsift/io.h"
#include "pqsift/parquet_file.h"
#include "pqsift/scan.h"
#include "pqsift/storage.h"
#include "py_values.h"
#include "retained_arenas.h"
#include "scan_handle.h"
#include "status_error.h"
#include "writer_handle.h"

#ifndef PQSIFT_VERSION
#define PQSIFT_VERSION "0.0.0"
#endif

namespace pqsift::python {
namespace {

namespace py = pybind11;

template <typename T>
T Get(const py::dict& d, const char* key, T fallback) {
  if (!d.contains(key) || d[key].is_none()) return fallback;
  return d[key].cast<T>();
}

// Sets *field to d[key] when given (present and not None), else leaves its default.
template <typename T>
void Override(const py::dict& d, const char* key, T* field) {
  *field = Get<T>(d, key, *field);
}

// The remote settings of o["storage"] (keys checked by the Python side: _scan.STORAGE_KEYS),
// or null for the defaults (Storage::Default()).
std::shared_ptr<Storage> ParseStorage(const py::dict& o) {
  if (!o.contains("storage") || o["storage"].is_none()) return nullptr;
  const auto d = o["storage"].cast<py::dict>();
  StorageOptions options;
  HttpOptions& http = options.http;
  S3Options& s3 = options.s3;
  Override(d, "ca_bundle", &http.ca_bundle);
  Override(d, "insecure", &http.insecure);
  Override(d, "connect_timeout_ms", &http.connect_timeout_ms);
  Override(d, "stall_timeout_ms", &http.stall_timeout_ms);
  Override(d, "max_requests", &http.max_parallel_requests);
  Override(d, "retries", &http.max_retries);
  Override(d, "max_whole_file_bytes", &http.max_whole_file_bytes);
  Override(d, "s3_endpoint", &s3.endpoint);
  Override(d, "s3_region", &s3.region);
  Override(d, "s3_profile", &s3.profile);
  Override(d, "s3_anonymous", &s3.anonymous);
  const std::string addressing = Get<std::string>(d, "s3_addressing", "auto");
  if (addressing == "path") s3.addressing = S3Options::Addressing::kPath;
  if (addressing == "virtual_host") s3.addressing = S3Options::Addressing::kVirtualHost;
  return Storage::Make(options);
}

ScanRequest ParseRequest(const std::vector<std::string>& paths, const py::object& split,
                         const py::dict& o) {
  ScanRequest r;
  r.paths = paths;
  if (!split.is_none()) {
    auto t = split.cast<py::tuple>();
    r.split = Split{t[0].cast<std::string>(), t[1].cast<uint64_t>(), t[2].cast<uint64_t>()};
  }
  ScanOptions& s = r.options;
  s.columns = Get<std::vector<std::string>>(o, "columns", {});
  s.filter = Get<std::string>(o, "filter", "");
  s.order_by = Get<std::string>(o, "order_by", "");
  s.limit = Get<int64_t>(o, "limit", -1);
  s.threads = Get<int>(o, "threads", 0);
  Override(o, "batch_size", &s.batch_size);
  s.prune = Get<bool>(o, "prune", true);
  s.count_only = Get<bool>(o, "count_only", false);
  s.verify_crc = Get<bool>(o, "verify_crc", false);
  s.row_index_column = Get<std::string>(o, "row_index", "");
  s.filename_column = Get<std::string>(o, "filename", "");
  // Set by to_pandas and to_numpy (their string columns take dictionary arrays), never by the
  // batches a user iterates or exports.
  s.keep_dictionaries = Get<bool>(o, "keep_dictionaries", false);
  r.dataset.hive_partitioning = Get<bool>(o, "hive", true);
  r.dataset.use_manifest = Get<bool>(o, "manifest", true);
  std::string partition_schema = Get<std::string>(o, "partition_schema", "");
  if (!partition_schema.empty()) {
    r.dataset.partition_schema = ValueOrThrow(ParsePartitionSchema(partition_schema));
  }
  r.skip_missing_columns = Get<bool>(o, "skip_missing_columns", false);
  r.dataset.storage = ParseStorage(o);
  r.options.open.storage = r.dataset.storage;
  return r;
}

ConvertOptions ParseConvert(const py::dict& o) {
  ConvertOptions c;
  c.pandas = Get<bool>(o, "pandas", false);
  c.date_as_object = Get<bool>(o, "date_as_object", true);
  c.timestamp_as_object = Get<bool>(o, "timestamp_as_object", false);
  std::string maps = Get<std::string>(o, "maps", "pairs");
  c.maps = maps == "lossy"    ? MapsAs::kDictLast
           : maps == "strict" ? MapsAs::kDictStrict
                              : MapsAs::kPairs;
  c.null_object = py::none();
  c.string_null = o.contains("string_null") ? py::object(o["string_null"]) : py::none();
  c.make_ns_timestamp = o["make_ns_timestamp"];
  c.make_ns_time = o["make_ns_time"];
  return c;
}

// Rows reserved up front per column (address space only; more rows still fit, by remapping).
constexpr int64_t kMaxReservedRows = int64_t{1} << 24;

py::list FinishAll(std::vector<std::unique_ptr<ColumnBuilder>>& builders) {
  py::list out;
  for (auto& b : builders) out.append(b->Finish());
  return out;
}

std::vector<std::unique_ptr<ColumnBuilder>> Builders(const BatchSchema& schema,
                                                     const ConvertOptions& options,
                                                     int64_t capacity) {
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (const Field& f : schema.fields) builders.push_back(MakeColumnBuilder(f, options, capacity));
  return builders;
}

void AppendBatch(std::vector<std::unique_ptr<ColumnBuilder>>& builders, const RecordBatch& batch,
                 int64_t row_base) {
  for (size_t c = 0; c < builders.size(); ++c) builders[c]->Append(*batch.columns[c], row_base);
}

// Every batch of the scan, converted column by column as it arrives (columns.h).
py::list ReadColumns(ScanHandle& handle, const py::dict& convert) {
  ConvertOptions options = ParseConvert(convert);
  std::shared_ptr<const BatchSchema> schema = handle.Schema();
  int64_t capacity = std::min(handle.MaxRows(), kMaxReservedRows);
  auto builders = Builders(*schema, options, capacity);
  int64_t rows = 0;
  while (std::shared_ptr<RecordBatch> batch = handle.Next()) {
    AppendBatch(builders, *batch, rows);
    rows += batch->num_rows;
  }
  return FinishAll(builders);
}

py::list SchemaFields(const BatchSchema& schema) {
  py::list out;
  for (const Field& f : schema.fields) {
    out.append(py::make_tuple(f.name, f.type->ToString(), f.nullable));
  }
  return out;
}

// (name, type) per partition key, the type as partition_schema spells it.
py::list PartitionFieldList(const std::vector<PartitionField>& partitions) {
  static const char* const kNames[] = {"bigint", "double", "date", "timestamp", "string"};
  py::list out;
  for (const PartitionField& p : partitions) {
    out.append(py::make_tuple(p.name, kNames[static_cast<int>(p.type)]));
  }
  return out;
}

// (path, start, end, row_groups, rows) per split: pqsift.Split's fields.
py::list SplitList(const std::vector<Split>& splits) {
  py::list out;
  for (const Split& s : splits)
    out.append(py::make_tuple(s.path, s.start, s.end, s.row_groups, s.rows));
  return out;
}

struct BatchRef {
  std::shared_ptr<RecordBatch> batch;
};

}  // namespace
}  // namespace pqsift::python

PYBIND11_MODULE(_pqsift, m) {
  using namespace pqsift;          // NOLINT(google-build-using-namespace)
  using namespace pqsift::python;  // NOLINT(google-build-using-namespace)
  namespace py = pybind11;
  m.doc() = "pqsift's C++ core; use the pqsift package.";
  m.attr("__version__") = PQSIFT_VERSION;
  InitPyValues();
  RegisterStatusErrors(m);

  py::class_<BatchRef>(m, "Batch")
      .def_property_readonly("num_rows", [](const BatchRef& b) { return b.batch->num_rows; })
      .def("fields", [](const BatchRef& b) { return SchemaFields(*b.batch->schema); })
      .def("columns",
           [](const BatchRef& b, const py::dict& convert) {
             ConvertOptions options = ParseConvert(convert);
             auto builders = Builders(*b.batch->schema, options, b.batch->num_rows);
             AppendBatch(builders, *b.batch, 0);
             return FinishAll(builders);
           })
      .def("arrow_c_array", [](const BatchRef& b) { return BatchCapsules(*b.batch); })
      .def("arrow_c_schema", [](const BatchRef& b) { return SchemaCapsule(*b.batch->schema); });

  py::class_<ScanHandle>(m, "ScanHandle")
      .def(py::init([](const std::vector<std::string>& paths, const py::object& split,
                       const py::dict& options) {
             return std::make_unique<ScanHandle>(ParseRequest(paths, split, options));
           }),
           py::arg("paths"), py::arg("split"), py::arg("options"))
      .def("fields", [](ScanHandle& h) { return SchemaFields(*h.Schema()); })
      .def("next",
           [](ScanHandle& h) -> py::object {
             std::shared_ptr<RecordBatch> batch = h.Next();
             if (batch == nullptr) return py::none();
             return py::cast(BatchRef{std::move(batch)});
           })
      .def("read_columns", &ReadColumns)
      .def("empty_columns",
           [](ScanHandle& h, const py::dict& convert) {
             ConvertOptions options = ParseConvert(convert);
             auto builders = Builders(*h.Schema(), options, 0);
             return FinishAll(builders);
           })
      .def("count_rows", &ScanHandle::CountRows)
      .def("stats_json", [](ScanHandle& h) { return StatsJsonText(h.Stats()); })
      .def("explain_json", &ScanHandle::ExplainJson, py::arg("chunks") = false)
      .def("max_rows", &ScanHandle::MaxRows)
      .def("schema_capsule", [](ScanHandle& h) { return SchemaCapsule(*h.Schema()); })
      .def("stream_capsule", [](ScanHandle& h) { return StreamCapsule(h.TakeScanner()); })
      .def("close", &ScanHandle::Close)
      .def("set_trace", &ScanHandle::set_trace)
      .def("trace", [](const ScanHandle& h) { return h.trace(); });

  m.def("splits", [](const std::vector<std::string>& paths, uint64_t target_bytes,
                     const py::dict& options) {
    ScanRequest r = ParseRequest(paths, py::none(), options);
    std::vector<Split> splits =
        CallInBackground<std::vector<Split>>([r, target_bytes]() -> Result<std::vector<Split>> {
          PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, Dataset::Discover(r.paths, r.dataset));
          return PlanSplits(dataset, r.options, target_bytes);
        });
    return SplitList(splits);
  });

  // pqsift.dask.read_parquet's planning in one call: the dataset is listed and its files opened
  // once for the partition keys, the splits and the schema (the client's planning is serial
  // time before any worker starts). Returns (partition fields, splits, names, empty columns).
  m.def("partition_plan", [](const std::vector<std::string>& paths, uint64_t target_bytes,
                             const py::dict& options, const py::dict& convert) {
    ScanRequest r = ParseRequest(paths, py::none(), options);
    struct Plan {
      std::vector<PartitionField> partitions;
      std::vector<Split> splits;
      std::shared_ptr<const BatchSchema> schema;
    };
    Plan plan = CallInBackground<Plan>([r, target_bytes]() -> Result<Plan> {
      PQSIFT_ASSIGN_OR_RETURN(Dataset dataset, Dataset::Discover(r.paths, r.dataset));
      Plan p;
      p.partitions = dataset.partitions();
      PQSIFT_ASSIGN_OR_RETURN(p.splits, PlanSplits(dataset, r.options, target_bytes, &p.schema));
      return p;
    });
    py::list names;
    for (const Field& f : plan.schema->fields) names.append(f.name);
    auto builders = Builders(*plan.schema, ParseConvert(convert), 0);
    return py::make_tuple(PartitionFieldList(plan.partitions), SplitList(plan.splits), names,
                          FinishAll(builders));
  });

  m.def("inspect_json", [](const std::string& path, const py::dict& options) {
    std::shared_ptr<Storage> storage = ParseStorage(options);
    if (!storage) storage = Storage::Default();
    return CallInBackground<std::string>([path, storage]() -> Result<std::string> {
      OpenOptions open;
      FileOpenOptions file_open;
      file_open.tail_bytes = TailBytes(open, !PathScheme(path).empty());
      PQSIFT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file,
                              storage->Open(path, file_open));
      PQSIFT_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetMetadata> md,
                              ReadParquetMetadata(*file, open));
      return InspectJsonText(*md);
    });
  });

  m.def("partition_fields", [](const std::vector<std::string>& paths, const py::dict& options) {
    ScanRequest r = ParseRequest(paths, py::none(), options);
    Dataset dataset =
        CallInBackground<Dataset>([r]() { return Dataset::Discover(r.paths, r.dataset); });
    return PartitionFieldList(dataset.partitions());
  });

  m.def("split_column_ranges",
        [](const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& parts,
           const std::string& column, const py::dict& convert) {
          std::vector<Split> splits;
          splits.reserve(parts.size());
          for (const auto& [path, start, end] : parts) splits.push_back(Split{path, start, end});
          std::vector<ColumnRange> ranges = CallInBackground<std::vector<ColumnRange>>(
              [splits, column]() { return SplitColumnRanges(splits, column); });
          ConvertOptions options = ParseConvert(convert);
          ElementContext context{column, 0};
          auto value = [&](const std::shared_ptr<Array>& a) -> py::object {
            if (a == nullptr) return py::none();
            return MakeElementConverter(*a, options, context)->Get(0);
          };
          py::list out;
          for (const ColumnRange& r : ranges) {
            out.append(py::make_tuple(value(r.min), value(r.max), r.may_have_nulls));
          }
          return out;
        });

  m.def("_join_background", &JoinAbandonedWorkers);
  m.def("tune_allocator", [] {
    TuneAllocatorForScans();
    UseRetainedArenas();
  });

  py::class_<WriterHandle>(m, "WriterHandle")
      .def(py::init([](const std::string& path, const py::dict& o) {
        WriterOptions w;
        w.compression = static_cast<CompressionCodec>(Get<int>(o, "compression", 1));
        w.compression_level = Get<int>(o, "compression_level", 0);
        Override(o, "row_group_rows", &w.row_group_rows);
        Override(o, "page_rows", &w.page_rows);
        Override(o, "page_bytes", &w.page_bytes);
        Override(o, "dictionary", &w.dictionary);
        Override(o, "dictionary_page_bytes", &w.dictionary_page_bytes);
        Override(o, "page_index", &w.page_index);
        Override(o, "statistics_truncate_bytes", &w.statistics_truncate_bytes);
        Override(o, "data_page_v2", &w.data_page_v2);
        Override(o, "page_checksums", &w.page_checksums);
        for (auto& [column, encoding] :
             Get<std::map<std::string, int>>(o, "column_encodings", {})) {
          w.column_encodings[column] = static_cast<Encoding>(encoding);
        }
        for (auto& [column, descending, nulls_first] :
             Get<std::vector<std::tuple<std::string, bool, bool>>>(o, "sort_by", {})) {
          w.sort_by.push_back({column, descending, nulls_first});
        }
        for (auto& [column, ndv_fpp] :
             Get<std::map<std::string, std::pair<int64_t, double>>>(o, "bloom_filters", {})) {
          w.bloom_filters[column] = BloomFilterOptions{ndv_fpp.first, ndv_fpp.second};
        }
        w.key_value_metadata =
            Get<std::vector<std::pair<std::string, std::string>>>(o, "key_value_metadata", {});
        w.created_by = Get<std::string>(o, "created_by", "");
        PartitionedWriteOptions partitioning;
        partitioning.partition_by = Get<std::vector<std::string>>(o, "partition_by", {});
        partitioning.file_prefix = Get<std::string>(o, "file_prefix", "part");
        partitioning.append = Get<bool>(o, "append", false);
        return std::make_unique<WriterHandle>(path, std::move(w), std::move(partitioning));
      }))
      .def("write_columns", &WriterHandle::WriteColumns)
      .def("write_stream", &WriterHandle::WriteStream)
      .def("close", &WriterHandle::Close)
      .def_property_readonly("rows", &WriterHandle::rows)
      .def_property_readonly("files", &WriterHandle::files);
}
