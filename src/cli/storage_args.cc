#include "cli/storage_args.h"

namespace pqsift::cli {

void AddStorageOptions(CLI::App* sub, StorageArgs& args) {
  HttpOptions& http = args.options.http;
  S3Options& s3 = args.options.s3;
  const std::string group = "Remote files (http://, https://, s3://)";
  sub->add_option("--ca-bundle", http.ca_bundle,
                  "PEM file of the certificate authorities HTTPS servers are checked against "
                  "(default: the system's)")
      ->group(group);
  sub->add_flag("--insecure", http.insecure,
                "Do not verify HTTPS servers' certificates and names (never by default)")
      ->group(group);
  sub->add_option("--connect-timeout-ms", http.connect_timeout_ms,
                  "Give up connecting after this long (then retry)")
      ->group(group);
  sub->add_option("--stall-timeout-ms", http.stall_timeout_ms,
                  "Abandon (and retry) a transfer that moves no byte for this long")
      ->group(group);
  sub->add_option("--max-requests", http.max_parallel_requests,
                  "Requests in flight side by side at most")
      ->group(group);
  sub->add_option("--retries", http.max_retries,
                  "Retries of a request after transient failures (5xx, 429, resets, truncated "
                  "bodies, stalls), with exponential backoff")
      ->group(group);
  sub->add_option("--max-whole-file-bytes", http.max_whole_file_bytes,
                  "A server that ignores Range requests has its files of at most this many "
                  "bytes read whole, once, into memory (larger ones fail; 0: none is read so)")
      ->group(group);
  sub->add_option("--s3-endpoint", s3.endpoint,
                  "S3 endpoint, http(s)://HOST[:PORT] (default: AWS_ENDPOINT_URL_S3, "
                  "AWS_ENDPOINT_URL, the profile's endpoint_url, else AWS)")
      ->group(group);
  sub->add_option("--s3-region", s3.region,
                  "S3 region (default: AWS_REGION, AWS_DEFAULT_REGION, the profile's, us-east-1)")
      ->group(group);
  sub->add_option("--s3-profile", s3.profile,
                  "Profile of ~/.aws/credentials and ~/.aws/config (default: AWS_PROFILE, then "
                  "the environment's keys, then 'default')")
      ->group(group);
  auto* path = sub->add_flag("--s3-path-style", args.path_style,
                             "Address buckets as ENDPOINT/BUCKET/KEY (default for non-AWS "
                             "endpoints)")
                   ->group(group);
  sub->add_flag("--s3-virtual-host", args.virtual_host,
                "Address buckets as BUCKET.ENDPOINT/KEY (default for AWS)")
      ->excludes(path)
      ->group(group);
  sub->add_flag("--s3-anonymous", s3.anonymous, "Send unsigned requests (public buckets)")
      ->group(group);
}

std::shared_ptr<Storage> MakeStorage(const StorageArgs& args) {
  StorageOptions options = args.options;
  if (args.path_style) options.s3.addressing = S3Options::Addressing::kPath;
  if (args.virtual_host) options.s3.addressing = S3Options::Addressing::kVirtualHost;
  return Storage::Make(options);
}

}  // namespace pqsift::cli
