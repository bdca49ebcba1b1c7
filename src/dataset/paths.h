// Path expansion with what a listing showed besides the data files (pqsift/dataset.h has the
// public ExpandPaths).
//
// Thread safety: as the storage's file systems (any thread).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pqsift/dataset.h"
#include "pqsift/storage.h"

namespace pqsift::dataset {

// ExpandPaths, and the hidden files ('.' or '_' names, like the manifest) that the folders and
// globs listed put in `*hidden` (null: dropped), so a remote dataset knows whether its manifest
// exists without asking again.
Result<std::vector<DatasetFile>> ExpandPathsListing(const std::vector<std::string>& inputs,
                                                    const std::shared_ptr<Storage>& storage,
                                                    std::vector<FileInfo>* hidden);

}  // namespace pqsift::dataset
