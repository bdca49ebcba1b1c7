// pqsift_query_bench FILE RUNS THREADS [WHERE [COLUMNS]]
// Runs one query RUNS times in this process, as the peers' benchmarks do (a DuckDB or Polars
// query in a process that is already up): each run opens the file, reads its footer, plans and
// decodes every batch, as a fresh query would. WHERE "" is no filter; COLUMNS is a comma list
// ("" for all). Prints one line of JSON:
//   {"ms":[...per run...],"rows":R,"bytes_read":B}
// Used by bench/scan_vs_peers.mjs for the "pqsift (library)" rows.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "pqsift/scan.h"

namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr, "usage: pqsift_query_bench FILE RUNS THREADS [WHERE [COLUMNS]]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int runs = std::max(1, std::atoi(argv[2]));
  pqsift::ScanOptions options;
  options.threads = std::atoi(argv[3]);
  if (argc > 4) options.filter = argv[4];
  if (argc > 5) options.columns = SplitList(argv[5]);

  std::vector<double> ms;
  int64_t rows = 0;
  uint64_t bytes_read = 0;
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    auto scanner = pqsift::Scanner::Open({path}, options);
    if (!scanner.ok()) {
      std::fprintf(stderr, "%s\n", scanner.status().ToString().c_str());
      return 1;
    }
    rows = 0;
    for (;;) {
      auto batch = (*scanner)->Next();
      if (!batch.ok()) {
        std::fprintf(stderr, "%s\n", batch.status().ToString().c_str());
        return 1;
      }
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows;
    }
    bytes_read = (*scanner)->stats().bytes_read;
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    ms.push_back(elapsed.count());
  }
  std::printf("{\"ms\":[");
  for (size_t i = 0; i < ms.size(); ++i) std::printf("%s%.3f", i ? "," : "", ms[i]);
  std::printf("],\"rows\":%lld,\"bytes_read\":%llu}\n", static_cast<long long>(rows),
              static_cast<unsigned long long>(bytes_read));
  return 0;
}
