// Where an S3 store's credentials, region and endpoint come from, resolved once per store the
// way the AWS CLI does:
//   credentials  an explicit profile (S3Options::profile) from ~/.aws/credentials, then
//                ~/.aws/config; else AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
//                AWS_SESSION_TOKEN; else the profile AWS_PROFILE names ("default" when unset)
//                in those files; none found (or S3Options::anonymous): unsigned requests
//   region       S3Options::region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region,
//                else us-east-1
//   endpoint     S3Options::endpoint, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's
//                endpoint_url, else https://s3.REGION.amazonaws.com
// The files are AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE when set, else under $HOME.
//
// The secret key and session token never leave this struct except into the request signing.
//
// Thread safety: pure functions of their arguments (and of the files they read).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "pqsift/storage.h"

namespace pqsift::io {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  bool empty() const { return access_key_id.empty() || secret_access_key.empty(); }
};

struct S3Config {
  std::string region;
  std::string endpoint;  // scheme://host[:port], no trailing slash
  bool path_style = true;
  AwsCredentials credentials;  // empty: unsigned requests
  std::string source;          // where the credentials came from ("environment", "profile x")
};

// Reads an environment variable (std::getenv in production; a map in tests). Null: unset.
using EnvLookup = std::function<const char*(const char*)>;

// The store's configuration. InvalidArgument for an endpoint that is not http(s)://host, or a
// profile named explicitly that no file holds.
Result<S3Config> ResolveS3Config(const S3Options& options, const EnvLookup& env);

// An INI file as the AWS files use it: section -> key -> value (names trimmed, keys
// lower-cased; '#' and ';' lines are comments).
std::map<std::string, std::map<std::string, std::string>> ParseIni(std::string_view text);

}  // namespace pqsift::io
