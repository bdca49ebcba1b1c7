// The CLI's commands. Each command file adds its subcommand to the root app and returns the
// function that runs it once the arguments are parsed.
//
// Exit codes: 0 success; 1 a file or the system failed (the error names the file); 2 a usage
// error (bad flag, bad argument). Errors are one line on stderr: "pqsift: <message>".
// Data goes to stdout, diagnostics to stderr.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "pqsift/status.h"

namespace pqsift::cli {

struct Command {
  CLI::App* app;             // the subcommand, owned by the root app
  std::function<int()> run;  // runs it after a successful parse; returns the exit code
};

Command AddInspectCommand(CLI::App& root);
Command AddScanCommand(CLI::App& root);
Command AddExplainCommand(CLI::App& root);
Command AddCountCommand(CLI::App& root);
Command AddConvertCommand(CLI::App& root);
Command AddIndexCommand(CLI::App& root);
Command AddSplitsCommand(CLI::App& root);

// "a, b.c,d" -> {"a", "b.c", "d"}: the --select lists of scan and explain.
std::vector<std::string> SplitList(const std::string& list);

// Prints `status` as the one error line and returns the exit code for it.
int ReportError(const Status& status);

}  // namespace pqsift::cli
