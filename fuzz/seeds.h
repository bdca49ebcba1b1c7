// Seed inputs for the fuzz targets (fuzz_targets.h), in each target's input layout: taken from
// real Parquet files (footers, column chunks, the value sections and levels of their pages,
// compressed page bodies, whole small files) and made with pqsift's own encoders and codecs
// (every encoding over every type it is defined for, every codec), plus filter texts.
//
// `pqsift_fuzz_seeds` writes them as the starting corpora of scripts/fuzz; the replay test
// (tests/fuzz/fuzz_replay_test.cc) runs them through the targets in every build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pqsift::fuzz {

struct Seed {
  std::string target;  // a name in kFuzzTargets
  std::string name;    // unique within the target, usable as a file name
  std::vector<uint8_t> bytes;
};

// Seeds from the Parquet files at `paths` (files that do not open as Parquet give only what
// their bytes allow: none, or a footer seed) and the synthetic ones.
std::vector<Seed> MakeSeeds(const std::vector<std::string>& paths);

}  // namespace pqsift::fuzz
