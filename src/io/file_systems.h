// The stores Storage::Make registers: local files, plain HTTP(S) URLs and S3 objects.
//
// Thread safety: every FileSystem here may be used from several threads at once.
#pragma once

#include <memory>

#include "io/http_client.h"
#include "pqsift/storage.h"

namespace pqsift::io {

std::shared_ptr<FileSystem> MakeLocalFileSystem();

// http:// and https:// URLs: files are opened by a suffix range (io/remote_file.h); folders
// cannot be listed (List is NotSupported: name the files, or use a manifest).
std::shared_ptr<FileSystem> MakeHttpFileSystem(std::shared_ptr<HttpClient> client);

// s3://bucket/key: requests signed with SigV4 (io/aws_config.h for the credentials, region and
// endpoint), folders listed with ListObjectsV2.
std::shared_ptr<FileSystem> MakeS3FileSystem(std::shared_ptr<HttpClient> client, S3Options options);

}  // namespace pqsift::io
