#include "io/aws_config.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace pqsift::io {
namespace {

std::string Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Env(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  return v == nullptr ? std::string() : std::string(v);
}

// The file's sections, or none when it cannot be read (a missing file is no configuration).
std::map<std::string, std::map<std::string, std::string>> ReadIni(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  return ParseIni(text.str());
}

const std::map<std::string, std::string>* Section(
    const std::map<std::string, std::map<std::string, std::string>>& ini, const std::string& name) {
  auto it = ini.find(name);
  return it == ini.end() ? nullptr : &it->second;
}

std::string Get(const std::map<std::string, std::string>* section, const std::string& key) {
  if (section == nullptr) return "";
  auto it = section->find(key);
  return it == section->end() ? "" : it->second;
}

AwsCredentials FromSection(const std::map<std::string, std::string>* section) {
  AwsCredentials c;
  c.access_key_id = Get(section, "aws_access_key_id");
  c.secret_access_key = Get(section, "aws_secret_access_key");
  c.session_token = Get(section, "aws_session_token");
  return c;
}

}  // namespace

std::map<std::string, std::map<std::string, std::string>> ParseIni(std::string_view text) {
  std::map<std::string, std::map<std::string, std::string>> out;
  std::string section;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = Trim(std::string_view(line).substr(1, line.size() - 2));
      out[section];
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos || section.empty()) continue;
    out[section][Lower(Trim(std::string_view(line).substr(0, eq)))] =
        Trim(std::string_view(line).substr(eq + 1));
  }
  return out;
}

Result<S3Config> ResolveS3Config(const S3Options& options, const EnvLookup& env) {
  S3Config config;
  std::string home = Env(env, "HOME");
  std::string credentials_file = Env(env, "AWS_SHARED_CREDENTIALS_FILE");
  if (credentials_file.empty() && !home.empty()) credentials_file = home + "/.aws/credentials";
  std::string config_file = Env(env, "AWS_CONFIG_FILE");
  if (config_file.empty() && !home.empty()) config_file = home + "/.aws/config";
  auto credentials_ini = ReadIni(credentials_file);
  auto config_ini = ReadIni(config_file);

  std::string profile = options.profile;
  const bool explicit_profile = !profile.empty();
  if (profile.empty()) profile = Env(env, "AWS_PROFILE");
  if (profile.empty()) profile = "default";
  const auto* cred_section = Section(credentials_ini, profile);
  const auto* config_section =
      Section(config_ini, profile == "default" ? "default" : "profile " + profile);
  if (explicit_profile && cred_section == nullptr && config_section == nullptr) {
    return Status::InvalidArgument("AWS profile '" + profile + "' is in neither " +
                                   credentials_file + " nor " + config_file);
  }

  if (!options.anonymous) {
    AwsCredentials from_env{Env(env, "AWS_ACCESS_KEY_ID"), Env(env, "AWS_SECRET_ACCESS_KEY"),
                            Env(env, "AWS_SESSION_TOKEN")};
    AwsCredentials from_files = FromSection(cred_section);
    if (from_files.empty()) from_files = FromSection(config_section);
    if (explicit_profile && !from_files.empty()) {
      config.credentials = from_files;
      config.source = "profile " + profile;
    } else if (!from_env.empty()) {
      config.credentials = from_env;
      config.source = "environment";
    } else if (!from_files.empty()) {
      config.credentials = from_files;
      config.source = "profile " + profile;
    }
  }
  if (config.credentials.empty()) config.source = "anonymous";

  config.region = options.region;
  if (config.region.empty()) config.region = Env(env, "AWS_REGION");
  if (config.region.empty()) config.region = Env(env, "AWS_DEFAULT_REGION");
  if (config.region.empty()) config.region = Get(config_section, "region");
  if (config.region.empty()) config.region = "us-east-1";

  std::string endpoint = options.endpoint;
  if (endpoint.empty()) endpoint = Env(env, "AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = Env(env, "AWS_ENDPOINT_URL");
  if (endpoint.empty()) endpoint = Get(config_section, "endpoint_url");
  const bool aws = endpoint.empty();
  if (aws) endpoint = "https://s3." + config.region + ".amazonaws.com";
  while (endpoint.ends_with('/')) endpoint.pop_back();
  if (!endpoint.starts_with("http://") && !endpoint.starts_with("https://")) {
    return Status::InvalidArgument("S3 endpoint '" + RedactUrl(endpoint) +
                                   "' is not http://HOST or https://HOST");
  }
  size_t host = endpoint.find("://") + 3;
  if (endpoint.find('/', host) != std::string::npos || endpoint.size() == host) {
    return Status::InvalidArgument("S3 endpoint '" + RedactUrl(endpoint) +
                                   "' must be a scheme and a host, without a path");
  }
  config.endpoint = endpoint;
  switch (options.addressing) {
    case S3Options::Addressing::kPath: config.path_style = true; break;
    case S3Options::Addressing::kVirtualHost: config.path_style = false; break;
    case S3Options::Addressing::kAuto: config.path_style = !aws; break;
  }
  return config;
}

}  // namespace pqsift::io
