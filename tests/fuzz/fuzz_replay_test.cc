// The fuzz targets (fuzz/fuzz_targets.h) in the ordinary builds: the seed corpus (from the
// parquet-testing files, good and bad, and synthetic inputs), a few deterministic mutations of
// each seed, and every input a fuzzer once crashed on (fuzz/regressions/<target>/<input>) run
// through the same functions libFuzzer calls. Under the sanitizer build any fault they hit is
// reported; in every build a target that traps (a broken contract) fails the run. The long
// fuzzing runs are scripts/fuzz's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "fuzz_targets.h"
#include "seeds.h"
#include "testing/files.h"

namespace pqsift::fuzz {
namespace {

const FuzzTarget* FindTarget(std::string_view name) {
  for (const FuzzTarget& t : kFuzzTargets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// Runs `bytes` through the target from an exact-size heap copy (as libFuzzer passes them).
void RunInput(const FuzzTarget& target, std::span<const uint8_t> bytes) {
  auto copy = std::make_unique<uint8_t[]>(bytes.size());
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  target.run({copy.get(), bytes.size()});
}

std::vector<std::string> SeedFiles() {
  std::vector<std::string> paths = pqsift::testing::ParquetTestingFiles("data");
  for (std::string& bad : pqsift::testing::ParquetTestingFiles("bad_data")) paths.push_back(bad);
  // VARIANT columns, shredded every way the suite has (the scan target unshreds them).
  for (std::string& v : pqsift::testing::ParquetTestingFiles("shredded_variant")) {
    paths.push_back(v);
  }
  paths.push_back(pqsift::testing::TestDataPath("tiny.parquet"));
  // Parquet modular encryption: parquet-java's files (the encrypted_scan target's seeds).
  const std::string data = pqsift::testing::ParquetTestingDir();
  std::error_code ec;
  if (!data.empty()) {
    std::vector<std::string> encrypted;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(data) / "data", ec)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name.ends_with(".parquet.encrypted")) {
        encrypted.push_back(entry.path().string());
      }
    }
    std::sort(encrypted.begin(), encrypted.end());
    paths.insert(paths.end(), encrypted.begin(), encrypted.end());
  }
  return paths;
}

const std::vector<Seed>& Seeds() {
  static const std::vector<Seed> seeds = MakeSeeds(SeedFiles());
  return seeds;
}

TEST(FuzzReplay, EveryTargetHasSeedsAndRunsThem) {
  std::map<std::string, int> per_target;
  for (const Seed& seed : Seeds()) {
    const FuzzTarget* target = FindTarget(seed.target);
    ASSERT_NE(target, nullptr) << "seed for an unknown target " << seed.target;
    SCOPED_TRACE(seed.target + "/" + seed.name);
    RunInput(*target, seed.bytes);
    ++per_target[seed.target];
  }
  for (const FuzzTarget& t : kFuzzTargets) {
    EXPECT_GT(per_target[std::string(t.name)], 0) << "no seed exercises target " << t.name;
  }
}

// Each seed with a few bytes changed, a bit flipped, or cut short: a second line of defence
// between fuzzing runs (the same mutations every run).
TEST(FuzzReplay, MutatedSeeds) {
  std::mt19937_64 rng(8);
  int runs = 0;
  for (const Seed& seed : Seeds()) {
    const FuzzTarget* target = FindTarget(seed.target);
    ASSERT_NE(target, nullptr);
    // Whole-file scans are dearer: fewer mutations each.
    const int mutations = seed.target == "scan" ? 2 : 6;
    for (int m = 0; m < mutations && !seed.bytes.empty(); ++m) {
      std::vector<uint8_t> bytes = seed.bytes;
      const size_t at = rng() % bytes.size();
      switch (m % 3) {
        case 0: bytes[at] = static_cast<uint8_t>(rng()); break;
        case 1: bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        default: bytes.resize(at); break;
      }
      SCOPED_TRACE(seed.target + "/" + seed.name + " mutation " + std::to_string(m));
      RunInput(*target, bytes);
      ++runs;
    }
  }
  EXPECT_GT(runs, 0);
}

// Every crash a fuzzer found, kept as fuzz/regressions/<target>/<input>.
TEST(FuzzReplay, Regressions) {
  const std::filesystem::path dir = pqsift::testing::RepoRoot() / "fuzz" / "regressions";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int inputs = 0;
  for (const auto& target_dir : std::filesystem::directory_iterator(dir)) {
    if (!target_dir.is_directory()) continue;
    const FuzzTarget* target = FindTarget(target_dir.path().filename().string());
    ASSERT_NE(target, nullptr) << "no fuzz target for " << target_dir.path();
    for (const auto& entry : std::filesystem::directory_iterator(target_dir.path())) {
      std::vector<uint8_t> bytes = pqsift::testing::ReadFileBytes(entry.path().string());
      SCOPED_TRACE(entry.path().string());
      RunInput(*target, bytes);
      ++inputs;
    }
  }
  RecordProperty("regression_inputs", inputs);
}

}  // namespace
}  // namespace pqsift::fuzz
