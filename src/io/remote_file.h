// A file read by HTTP range requests (plain HTTP(S), and S3 objects signed by the S3 store).
//
// Opening costs one request: a suffix range for the file's last FileOpenOptions::tail_bytes
// (at least 8), whose Content-Range gives the size; those bytes are held (RandomAccessFile::
// Hold), so the footer read that follows costs nothing. The response's ETag (a strong one),
// else its Last-Modified, is pinned: every later request carries If-Match (If-Unmodified-Since)
// and every response's Content-Range must name the range asked for and the size first seen. A
// 412, or another size, is "changed during the scan", an error naming the file.
//
// Reads started together (DoStartReads) go to the HTTP client side by side: one round trip.
//
// Thread safety: as RandomAccessFile (any thread; reads run on the client's I/O thread).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "io/http_client.h"
#include "pqsift/storage.h"

namespace pqsift::io {

// How to ask for one object: its URL and what every request for it carries.
struct RemoteTarget {
  std::string url;
  std::string display;  // the name in messages and RandomAccessFile::name()
  std::vector<std::string> headers;
  std::string aws_sigv4;    // S3 signing (HttpRequest::aws_sigv4)
  std::string credentials;  // "key:secret" for the signature; never shown
  bool follow_redirects = false;
};

// Opens the files side by side (one round trip for all): result i is targets[i]'s. A file
// whose expected[i] is set (listed: its size and version known) is asked for its tail by an
// explicit range, pinned to that version; the others by a suffix range. IOError naming the
// file and the HTTP status when it does not exist or cannot be read; a 416 on the suffix
// range is an empty file. A server that answers a suffix range with another part of the file
// (some S3 emulators do) gives the size: the tail is then read by the footer read, one more
// round trip.
std::vector<Result<std::unique_ptr<RandomAccessFile>>> OpenRemoteFiles(
    const std::shared_ptr<HttpClient>& client, std::vector<RemoteTarget> targets,
    std::span<const FileInfo* const> expected, const FileOpenOptions& options);

// An IOError for a response with a status that is not success: "NAME: HTTP 404 Not Found",
// with the S3 error code from an XML error body when there is one.
Status HttpStatusError(const std::string& name, const HttpResponse& response);

}  // namespace pqsift::io
