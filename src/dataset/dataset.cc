// Dataset::Discover: the files of a dataset and their partition values, without opening any.
#include <algorithm>

#include "dataset/partition.h"
#include "dataset/paths.h"
#include "pqsift/dataset.h"

namespace pqsift {
namespace {

std::string KeysText(const std::vector<std::pair<std::string, std::optional<std::string>>>& keys) {
  std::string out = "[";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + keys[i].first;
  return out + "]";
}

// The folder a manifest belongs in: the one input when it is a folder, or the literal folder
// part of a single glob.
std::string RootOf(const std::vector<std::string>& inputs, Storage& storage) {
  if (inputs.size() != 1) return "";
  const std::string& in = inputs.front();
  auto fs = storage.For(in);
  if (fs.ok() && (*fs)->IsFolder(in)) {
    // A remote folder ends with '/'; the root is named without it, as a local one.
    return in.size() > 1 && in.ends_with('/') && !PathScheme(in).empty()
               ? in.substr(0, in.size() - 1)
               : in;
  }
  size_t wild = in.find_first_of("*?[");
  if (wild == std::string::npos) return "";
  size_t slash = in.rfind('/', wild);
  return slash == std::string::npos ? "." : in.substr(0, slash == 0 ? 1 : slash);
}

}  // namespace

Result<Dataset> Dataset::Discover(const std::vector<std::string>& inputs,
                                  const DatasetOptions& options) {
  if (inputs.empty()) return Status::InvalidArgument("no files to scan");
  Dataset d;
  d.options_ = options;
  if (!d.options_.storage) d.options_.storage = Storage::Default();
  d.root_ = RootOf(inputs, *d.options_.storage);
  std::vector<FileInfo> hidden;
  PQSIFT_ASSIGN_OR_RETURN(d.files_,
                          dataset::ExpandPathsListing(inputs, d.options_.storage, &hidden));
  if (!d.root_.empty() && !PathScheme(d.root_).empty()) {
    // A remote folder was listed: the manifest is there only if the listing showed it.
    const std::string manifest = d.root_ + "/" + std::string(kManifestName);
    auto fs = d.options_.storage->For(d.root_);
    bool listed = fs.ok() && (*fs)->IsFolder(d.root_ + "/");
    d.may_have_manifest_ =
        !listed || std::any_of(hidden.begin(), hidden.end(),
                               [&](const FileInfo& f) { return f.path == manifest; });
  }
  if (!options.hive_partitioning || d.files_.empty()) {
    d.values_.resize(d.files_.size());
    return d;
  }
  auto first = HiveSegments(d.files_.front().path);
  for (size_t f = 0; f < d.files_.size(); ++f) {
    auto segments = f == 0 ? first : HiveSegments(d.files_[f].path);
    bool same = segments.size() == first.size();
    for (size_t k = 0; same && k < segments.size(); ++k) same = segments[k].first == first[k].first;
    if (!same) {
      return Status::InvalidArgument("hive partition keys differ: " + d.files_.front().path +
                                     " has " + KeysText(first) + ", " + d.files_[f].path + " has " +
                                     KeysText(segments));
    }
    std::vector<std::optional<std::string>> values;
    values.reserve(segments.size());
    for (auto& [key, value] : segments) values.push_back(std::move(value));
    d.values_.push_back(std::move(values));
  }
  for (size_t k = 0; k < first.size(); ++k) {
    for (size_t j = 0; j < k; ++j) {
      if (first[j].first == first[k].first) {
        return Status::InvalidArgument(d.files_.front().path + ": partition key '" +
                                       first[k].first + "' appears twice");
      }
    }
    PartitionField field{first[k].first, PartitionType::kString};
    bool given = false;
    for (const PartitionField& g : options.partition_schema) {
      if (g.name == field.name) {
        field.type = g.type;
        given = true;
      }
    }
    std::vector<std::optional<std::string>> column;
    for (const auto& values : d.values_) column.push_back(values[k]);
    if (!given) field.type = dataset::InferPartitionType(column);
    for (size_t f = 0; f < column.size(); ++f) {
      if (!dataset::ParsePartitionValue(column[f], field.type)) {
        return Status::InvalidArgument(d.files_[f].path + ": partition value '" + *column[f] +
                                       "' of '" + field.name + "' is not a " +
                                       dataset::PartitionTypeName(field.type));
      }
    }
    d.partitions_.push_back(std::move(field));
  }
  for (const PartitionField& g : options.partition_schema) {
    bool found = false;
    for (const PartitionField& p : d.partitions_) found = found || p.name == g.name;
    if (!found) {
      return Status::InvalidArgument("--partition-schema names '" + g.name +
                                     "', which is no key=value folder of " + d.files_.front().path);
    }
  }
  return d;
}

}  // namespace pqsift
