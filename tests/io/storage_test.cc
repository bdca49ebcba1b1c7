// The storage layer's parts that need no server: URL handling, Content-Range, the AWS
// configuration, ListObjectsV2 pages, and the wave / round-trip accounting over memory files.
// (The stores themselves against real servers: tests/remote/remote_test.py.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "io/aws_config.h"
#include "io/http_client.h"
#include "io/s3_listing.h"
#include "io/wave.h"
#include "pqsift/storage.h"

namespace pqsift {
namespace {

TEST(StorageTest, SchemesAndRedaction) {
  EXPECT_EQ(PathScheme("s3://b/k"), "s3");
  EXPECT_EQ(PathScheme("https://h/x"), "https");
  EXPECT_EQ(PathScheme("data/x.parquet"), "");
  EXPECT_EQ(PathScheme("/a://b"), "");
  EXPECT_EQ(RedactUrl("https://user:secret@host:8/p/x?X-Amz-Signature=abc#f"),
            "https://host:8/p/x");
  EXPECT_EQ(RedactUrl("http://host/p?q=1"), "http://host/p");
  EXPECT_EQ(RedactUrl("local/path?x"), "local/path?x");
}

TEST(StorageTest, UnknownSchemeIsAnError) {
  auto storage = Storage::Make();
  auto fs = storage->For("gopher://x/y");
  ASSERT_FALSE(fs.ok());
  EXPECT_EQ(fs.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(storage->For("relative/file.parquet").ok());
}

TEST(StorageTest, CallersRegisterTheirOwnStore) {
  class Mem final : public FileSystem {
   public:
    Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path,
                                                   const FileOpenOptions&) override {
      std::string bytes = "hello " + path;
      return MakeMemoryFile(path, {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
    }
    bool IsFolder(const std::string&) override { return false; }
    Result<std::vector<FileInfo>> List(const std::string& f) override {
      return Status::NotSupported(f);
    }
    Result<FileInfo> Stat(const std::string& path) override {
      return FileInfo{path, 0, 0, "", false};
    }
  };
  auto storage = Storage::Make();
  storage->Register("mem", std::make_shared<Mem>());
  auto file = storage->Open("mem://a");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->size(), 13u);  // "hello mem://a"
}

TEST(ContentRangeTest, ParsesAndRefuses) {
  io::ContentRange r;
  ASSERT_TRUE(io::ParseContentRange("bytes 10-19/100", &r));
  EXPECT_EQ(*r.range, (ByteRange{10, 10}));
  EXPECT_EQ(*r.total, 100u);
  ASSERT_TRUE(io::ParseContentRange("bytes */0", &r));
  EXPECT_FALSE(r.range.has_value());
  EXPECT_EQ(*r.total, 0u);
  ASSERT_TRUE(io::ParseContentRange("bytes 0-4/*", &r));
  EXPECT_FALSE(r.total.has_value());
  EXPECT_FALSE(io::ParseContentRange("bytes 10-9/100", &r));
  EXPECT_FALSE(io::ParseContentRange("bytes 0-100/100", &r));  // past the end
  EXPECT_FALSE(io::ParseContentRange("items 0-1/2", &r));
  EXPECT_FALSE(io::ParseContentRange("bytes 0-1", &r));
  EXPECT_FALSE(io::ParseContentRange("bytes x-1/5", &r));
  EXPECT_FALSE(io::ParseContentRange("bytes 0-99999999999999999999999/5", &r));
}

TEST(HttpStatusTextTest, NamesCommonStatuses) {
  EXPECT_EQ(io::HttpStatusText(404), "404 Not Found");
  EXPECT_EQ(io::HttpStatusText(599), "599");
}

class EnvMap {
 public:
  explicit EnvMap(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}
  io::EnvLookup lookup() const {
    return [this](const char* name) -> const char* {
      auto it = vars_.find(name);
      return it == vars_.end() ? nullptr : it->second.c_str();
    };
  }

 private:
  std::map<std::string, std::string> vars_;
};

TEST(AwsConfigTest, IniSections) {
  auto ini = io::ParseIni("# c\n[default]\n Region = eu-west-1 \n[profile x]\nk=v=w\n; c\n");
  EXPECT_EQ(ini["default"]["region"], "eu-west-1");
  EXPECT_EQ(ini["profile x"]["k"], "v=w");
}

TEST(AwsConfigTest, EnvironmentThenProfilesThenAnonymous) {
  auto dir = std::filesystem::temp_directory_path() / "pqsift_aws_config_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "credentials")
      << "[default]\naws_access_key_id=DK\naws_secret_access_key=DS\n"
      << "[p]\naws_access_key_id=PK\naws_secret_access_key=PS\n"
      << "aws_session_token=PT\n";
  std::ofstream(dir / "config") << "[profile p]\nregion=eu-central-1\n"
                                << "endpoint_url=http://127.0.0.1:9000/\n";
  std::string creds = (dir / "credentials").string(), config = (dir / "config").string();

  EnvMap env_keys({{"AWS_ACCESS_KEY_ID", "EK"},
                   {"AWS_SECRET_ACCESS_KEY", "ES"},
                   {"AWS_SHARED_CREDENTIALS_FILE", creds},
                   {"AWS_CONFIG_FILE", config}});
  auto c = io::ResolveS3Config({}, env_keys.lookup());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->credentials.access_key_id, "EK");
  EXPECT_EQ(c->region, "us-east-1");
  EXPECT_EQ(c->endpoint, "https://s3.us-east-1.amazonaws.com");
  EXPECT_FALSE(c->path_style);

  EnvMap env_profile(
      {{"AWS_PROFILE", "p"}, {"AWS_SHARED_CREDENTIALS_FILE", creds}, {"AWS_CONFIG_FILE", config}});
  c = io::ResolveS3Config({}, env_profile.lookup());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->credentials.access_key_id, "PK");
  EXPECT_EQ(c->credentials.session_token, "PT");
  EXPECT_EQ(c->region, "eu-central-1");
  EXPECT_EQ(c->endpoint, "http://127.0.0.1:9000");
  EXPECT_TRUE(c->path_style);

  // An explicit profile wins over the environment's keys.
  S3Options named;
  named.profile = "p";
  c = io::ResolveS3Config(named, env_keys.lookup());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->credentials.access_key_id, "PK");

  S3Options missing;
  missing.profile = "nope";
  EXPECT_FALSE(io::ResolveS3Config(missing, env_keys.lookup()).ok());

  S3Options anonymous;
  anonymous.anonymous = true;
  c = io::ResolveS3Config(anonymous, env_keys.lookup());
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->credentials.empty());

  EnvMap nothing({{"HOME", (dir / "none").string()}});
  c = io::ResolveS3Config({}, nothing.lookup());
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->credentials.empty());

  S3Options bad;
  bad.endpoint = "ftp://x";
  EXPECT_FALSE(io::ResolveS3Config(bad, nothing.lookup()).ok());
  bad.endpoint = "http://x/path";
  EXPECT_FALSE(io::ResolveS3Config(bad, nothing.lookup()).ok());
  std::filesystem::remove_all(dir);
}

TEST(S3ListingTest, ParsesPagesAndEntities) {
  std::string xml =
      R"(<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name>)"
      R"(<Contents><Key>day=1/a&amp;b.parquet</Key><LastModified>2026-01-05T10:20:30.500Z</LastModified>)"
      R"(<ETag>&quot;abc&quot;</ETag><Size>123</Size></Contents>)"
      R"(<Contents><Key>x&#233;</Key><Size>0</Size></Contents>)"
      R"(<IsTruncated>true</IsTruncated><NextContinuationToken>t/1+=</NextContinuationToken>)"
      R"(</ListBucketResult>)";
  auto page = io::ParseListObjectsV2(xml, "s3://b/");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "day=1/a&b.parquet");
  EXPECT_EQ(page->objects[0].etag, "\"abc\"");
  EXPECT_EQ(page->objects[0].size, 123u);
  EXPECT_EQ(page->objects[0].mtime_ns, int64_t{1767608430} * 1'000'000'000 + 500'000'000);
  EXPECT_EQ(page->objects[1].key, "x\xc3\xa9");
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_token, "t/1+=");
}

TEST(S3ListingTest, MalformedPagesAreCorruption) {
  for (const char* xml : {
           "<Error/>",
           "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
           "<ListBucketResult><Contents><Key>a</Key><Size>-1</Size></Contents></ListBucketResult>",
           "<ListBucketResult><Contents><Key>a&bogus;</Key><Size>1</Size></Contents>",
           "<ListBucketResult><Contents><Key>a</Key><Size>1</Size>",
           "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
       }) {
    auto page = io::ParseListObjectsV2(xml, "s3://b/");
    ASSERT_FALSE(page.ok()) << xml;
    EXPECT_EQ(page.status().code(), StatusCode::kCorruption);
    EXPECT_NE(page.status().message().find("s3://b/"), std::string::npos);
  }
}

TEST(S3ListingTest, UriEncoding) {
  EXPECT_EQ(io::UriEncode("day=1/a b+~.parquet", true), "day%3D1/a%20b%2B~.parquet");
  EXPECT_EQ(io::UriEncode("a/b", false), "a%2Fb");
}

std::unique_ptr<RandomAccessFile> Memory(const std::string& name, size_t size) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  return MakeMemoryFile(name, bytes);
}

TEST(WaveTest, OneRoundTripForManyFilesAndRanges) {
  auto counters = std::make_shared<IoCounters>();
  auto a = Memory("a", 1000), b = Memory("b", 1000);
  a->ShareCounters(counters);
  b->ShareCounters(counters);
  std::vector<io::WaveRead> wave(2);
  wave[0].file = a.get();
  wave[0].ranges = {{0, 10}, {500, 20}};
  wave[1].file = b.get();
  wave[1].ranges = {{990, 10}};
  io::FetchWave(wave);
  ASSERT_TRUE(wave[0].status.ok());
  ASSERT_EQ(wave[0].out.size(), 2u);
  EXPECT_EQ(wave[0].out[1].data()[0], static_cast<uint8_t>(500 * 7));
  IoStats s = counters->Snapshot();
  EXPECT_EQ(s.read_requests, 3u);
  EXPECT_EQ(s.bytes_read, 40u);
  EXPECT_EQ(s.round_trips, 1u);
  // A range outside the file fails that file's reads, not the other's.
  wave[0].ranges = {{995, 10}};
  io::FetchWave(wave);
  EXPECT_EQ(wave[0].status.code(), StatusCode::kOutOfRange);
  EXPECT_TRUE(wave[1].status.ok());
}

TEST(WaveTest, PrefetchedBytesServeLaterReadsWithoutRequests) {
  auto counters = std::make_shared<IoCounters>();
  auto a = Memory("a", 100'000);
  a->ShareCounters(counters);
  std::vector<io::WaveRead> wave(1);
  wave[0].file = a.get();
  wave[0].ranges = {{1000, 100}, {1200, 100}, {90'000, 10}};  // the first two coalesce
  io::PrefetchWave(wave);
  EXPECT_EQ(counters->Snapshot().read_requests, 2u);
  auto inside = a->Read({1250, 20});
  ASSERT_TRUE(inside.ok());
  EXPECT_EQ(inside->data()[0], static_cast<uint8_t>(1250 * 7));
  auto ranges = a->ReadRanges(std::vector<ByteRange>{{1000, 5}, {90'005, 5}});
  ASSERT_TRUE(ranges.ok());
  EXPECT_EQ(counters->Snapshot().read_requests, 2u);  // all from memory
  EXPECT_TRUE(a->Read({5000, 5}).ok());               // not prefetched: a request
  EXPECT_EQ(counters->Snapshot().read_requests, 3u);
  a->ReleasePrefetched();
  EXPECT_TRUE(a->Read({1000, 5}).ok());
  EXPECT_EQ(counters->Snapshot().read_requests, 4u);
}

TEST(IoCountersTest, OverlappingWaitsAreOneRoundTrip) {
  IoCounters c;
  c.BeginWait();
  c.BeginWait();
  c.EndWait();
  c.EndWait();
  c.BeginWait();
  c.EndWait();
  EXPECT_EQ(c.Snapshot().round_trips, 2u);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int k = 0; k < 1000; ++k) IoCounters::Wait wait(&c);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_GE(c.Snapshot().round_trips, 3u);
  EXPECT_LE(c.Snapshot().round_trips, 4002u);
}

}  // namespace
}  // namespace pqsift
