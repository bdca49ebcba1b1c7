// The remote storage flags every command that opens files shares: TLS (--ca-bundle,
// --insecure), timeouts, parallel requests and retries for http(s):// URLs, and the S3 store
// (--s3-endpoint, --s3-region, --s3-profile, --s3-path-style / --s3-virtual-host,
// --s3-anonymous). Credentials are never flags: they come from the AWS environment variables
// and files (pqsift/storage.h).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "pqsift/storage.h"

namespace pqsift::cli {

struct StorageArgs {
  StorageOptions options;
  bool path_style = false;
  bool virtual_host = false;
};

void AddStorageOptions(CLI::App* sub, StorageArgs& args);

// The storage the flags describe (one per command run: its I/O thread and connections).
std::shared_ptr<Storage> MakeStorage(const StorageArgs& args);

}  // namespace pqsift::cli
