// pqsift_fuzz_seeds OUT_DIR [FILE.parquet...]: writes the seed corpus of every fuzz target
// (seeds.h) to OUT_DIR/<target>/<name>, from the given Parquet files and synthetic inputs.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "seeds.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: pqsift_fuzz_seeds OUT_DIR [FILE.parquet...]\n";
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  std::vector<std::string> files(argv + 2, argv + argc);
  std::map<std::string, int> counts;
  for (const pqsift::fuzz::Seed& seed : pqsift::fuzz::MakeSeeds(files)) {
    std::filesystem::create_directories(out_dir / seed.target);
    std::ofstream out(out_dir / seed.target / ("seed_" + seed.name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(seed.bytes.data()),
              static_cast<std::streamsize>(seed.bytes.size()));
    if (!out) {
      std::cerr << "pqsift_fuzz_seeds: cannot write " << (out_dir / seed.target).string() << '\n';
      return 1;
    }
    ++counts[seed.target];
  }
  for (const auto& [target, count] : counts) std::cout << target << ": " << count << " seeds\n";
  return 0;
}
