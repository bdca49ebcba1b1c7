// pqsift_process_timer COMMAND [ARGS...]: runs COMMAND and prints, as the last line on stderr,
//   PQSIFT_TIMER wall_ms=<float> cpu_ms=<float> maxrss_kb=<int>
// wall time from just before fork to the child's exit, CPU time (user + system) and peak RSS
// from the child's rusage. The benchmarks time the pqsift CLI with it rather than from Node.js,
// whose spawn costs 20-50 ms of the parent's own (more than a selective query takes), and
// rather than /usr/bin/time, whose times have a 10 ms resolution. The child inherits stdin,
// stdout and stderr; the exit status is the child's (128 + signal when killed).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace {

double Seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; }

double Now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pqsift_process_timer COMMAND [ARGS...]\n");
    return 2;
  }
  const double start = Now();
  const pid_t child = fork();
  if (child < 0) {
    std::perror("pqsift_process_timer: fork");
    return 2;
  }
  if (child == 0) {
    execvp(argv[1], argv + 1);
    std::perror("pqsift_process_timer: exec");
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) < 0) {
    std::perror("pqsift_process_timer: wait4");
    return 2;
  }
  const double wall = Now() - start;
  std::fprintf(stderr, "PQSIFT_TIMER wall_ms=%.3f cpu_ms=%.3f maxrss_kb=%ld\n", wall * 1e3,
               (Seconds(usage.ru_utime) + Seconds(usage.ru_stime)) * 1e3, usage.ru_maxrss);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
