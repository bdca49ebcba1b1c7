#include "io/curl_library.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace pqsift::io {
namespace {

constexpr const char* kLibrary = "libcurl.so.4";

Result<CurlLibrary> Load() {
  // Never unloaded: transfers may run until the process ends.
  void* handle = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Status::IOError(std::string("HTTP(S) and S3 need libcurl (") + kLibrary +
                           "), which cannot be loaded: " + (why ? why : "unknown error"));
  }
  CurlLibrary curl;
#define PQSIFT_CURL_RESOLVE(name)                                                             \
  curl.name = reinterpret_cast<decltype(curl.name)>(dlsym(handle, "curl_" #name));            \
  if (curl.name == nullptr) {                                                                 \
    return Status::IOError(std::string(kLibrary) + " has no curl_" #name                      \
                                                   " (libcurl 7.86 "                          \
                                                   "or newer is needed for HTTP(S) and S3)"); \
  }
  PQSIFT_CURL_FUNCTIONS(PQSIFT_CURL_RESOLVE)
#undef PQSIFT_CURL_RESOLVE
  if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    return Status::IOError(std::string(kLibrary) + ": curl_global_init failed");
  }
  return curl;
}

}  // namespace

Result<const CurlLibrary*> LoadCurl() {
  static const Result<CurlLibrary> loaded = Load();
  if (!loaded.ok()) return loaded.status();
  return &*loaded;
}

}  // namespace pqsift::io
