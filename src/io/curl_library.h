// libcurl, loaded when the first HTTP(S) or S3 request needs it (dlopen of libcurl.so.4)
// rather than linked: a process that reads only local files never loads libcurl and the ~30
// libraries it brings, which cost about 3 ms of every start here (as much as a pruned point
// query on a local file takes).
//
// The table holds the functions the HTTP client uses, named as in curl.h without "curl_".
// Thread safety: LoadCurl is thread safe, loads and initialises libcurl once
// (curl_global_init), and the table is immutable after.
// Errors: IOError naming the library and the loader's message when libcurl cannot be loaded or
// lacks a function (a libcurl older than 7.86).
#pragma once

#include <curl/curl.h>

#include "pqsift/status.h"

namespace pqsift::io {

// X(name): every libcurl function the client calls, as curl_<name>.
// clang-format off
#define PQSIFT_CURL_FUNCTIONS(X) \
  X(global_init) \
  X(easy_init) \
  X(easy_reset) \
  X(easy_cleanup) \
  X(easy_setopt) \
  X(easy_getinfo) \
  X(easy_strerror) \
  X(slist_append) \
  X(slist_free_all) \
  X(multi_init) \
  X(multi_cleanup) \
  X(multi_setopt) \
  X(multi_add_handle) \
  X(multi_remove_handle) \
  X(multi_perform) \
  X(multi_info_read) \
  X(multi_poll) \
  X(multi_wakeup)
// clang-format on

struct CurlLibrary {
#define PQSIFT_CURL_POINTER(name) decltype(&::curl_##name) name = nullptr;
  PQSIFT_CURL_FUNCTIONS(PQSIFT_CURL_POINTER)
#undef PQSIFT_CURL_POINTER
};

Result<const CurlLibrary*> LoadCurl();

}  // namespace pqsift::io
