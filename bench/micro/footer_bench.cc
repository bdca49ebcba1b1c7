// pqsift_footer_bench FILE ITERATIONS
// Opens FILE and reads + decodes its footer (tail read, Thrift decode, schema tree, checks)
// ITERATIONS times, as a query planner would for each file it touches. Prints one line:
//   per_footer_us=<microseconds per open, median of 5 batches> rows=<the file's rows>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pqsift/io.h"
#include "pqsift/parquet_file.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: pqsift_footer_bench FILE ITERATIONS\n");
    return 2;
  }
  std::string path = argv[1];
  int iterations = std::max(1, std::atoi(argv[2]));
  std::vector<double> batches;
  int64_t rows = 0;
  for (int batch = 0; batch < 5; ++batch) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
      auto file = pqsift::OpenLocalFile(path);
      if (!file.ok()) {
        std::fprintf(stderr, "%s\n", file.status().ToString().c_str());
        return 1;
      }
      auto md = pqsift::ReadParquetMetadata(**file);
      if (!md.ok()) {
        std::fprintf(stderr, "%s\n", md.status().ToString().c_str());
        return 1;
      }
      rows = (*md)->num_rows();
    }
    std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - start;
    batches.push_back(elapsed.count() / iterations);
  }
  std::sort(batches.begin(), batches.end());
  std::printf("per_footer_us=%.2f rows=%lld\n", batches[batches.size() / 2],
              static_cast<long long>(rows));
  return 0;
}
