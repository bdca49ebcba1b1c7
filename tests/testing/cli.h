// Runs the `pqsift` binary (BuildCliPath()) as a separate process, with stdout and stderr
// captured apart, for the CLI tests.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testing/build_paths.h"

extern char** environ;

namespace pqsift::testing {

struct CliResult {
  int exit_code = -1;  // negative: killed by that signal
  std::string out;
  std::string err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the CLI with `args`, stdin from /dev/null, stdout and stderr into temporary files.
inline CliResult RunCli(const std::vector<std::string>& args) {
  CliResult result;
  char out_path[] = "/tmp/pqsift_cli_out_XXXXXX";
  char err_path[] = "/tmp/pqsift_cli_err_XXXXXX";
  int out_fd = ::mkstemp(out_path);
  int err_fd = ::mkstemp(err_path);
  if (out_fd < 0 || err_fd < 0) {
    ADD_FAILURE() << "mkstemp failed";
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  std::vector<std::string> storage = {BuildCliPath()};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, BuildCliPath(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_fd);
  ::close(err_fd);
  if (rc != 0) {
    ADD_FAILURE() << "cannot run " << BuildCliPath() << ": " << std::strerror(rc);
  } else {
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }
  result.out = Slurp(out_path);
  result.err = Slurp(err_path);
  ::unlink(out_path);
  ::unlink(err_path);
  return result;
}

inline std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) lines.push_back(line);
  return lines;
}

// Exactly one stderr line, "pqsift: ...", containing `needle`.
inline void ExpectOneErrorLine(const CliResult& r, const std::string& needle) {
  std::vector<std::string> lines = Lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("pqsift: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0];
  EXPECT_FALSE(r.err.empty() || r.err.back() != '\n') << "the line ends with a newline";
}

}  // namespace pqsift::testing
