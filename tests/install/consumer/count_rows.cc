// A program built against the installed pqsift: prints the row count of a Parquet file.
#include <cstdio>

#include <pqsift/io.h>
#include <pqsift/parquet_file.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto file = pqsift::OpenLocalFile(argv[1]);
  if (!file.ok()) return 1;
  auto md = pqsift::ReadParquetMetadata(**file);
  if (!md.ok()) {
    std::fprintf(stderr, "%s\n", md.status().ToString().c_str());
    return 1;
  }
  std::printf("rows=%lld\n", static_cast<long long>((*md)->num_rows()));
  return 0;
}
