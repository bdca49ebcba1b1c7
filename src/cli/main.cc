// pqsift command line: parses arguments, runs one command, maps errors to one line on stderr.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/command.h"
#include "pqsift/scan.h"

#ifndef PQSIFT_VERSION
#define PQSIFT_VERSION "0.0.0"
#endif

namespace pqsift::cli {

int ReportError(const Status& status) {
  std::cerr << "pqsift: " << status.message() << '\n';
  return status.code() == StatusCode::kInvalidArgument ? 2 : 1;
}

namespace {

int Main(int argc, char** argv) {
  CLI::App app{"pqsift: a Parquet scan engine that reads only the bytes a query can need."};
  app.set_version_flag("--version", "pqsift " PQSIFT_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'pqsift <command> --help' for the flags of one command.");

  std::vector<Command> commands = {
      AddInspectCommand(app), AddScanCommand(app),  AddExplainCommand(app), AddCountCommand(app),
      AddConvertCommand(app), AddIndexCommand(app), AddSplitsCommand(app)};
  // The root's --help describes every command and its flags; each command's own --help (which
  // the subcommands inherited above) describes just that command.
  app.set_help_flag();
  app.set_help_all_flag("-h,--help", "Print this help: every command and its flags");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "pqsift: " << e.what() << " (see pqsift --help)\n";
    return 2;
  }
  for (const Command& command : commands) {
    if (command.app->parsed()) return command.run();
  }
  return 2;
}

}  // namespace
}  // namespace pqsift::cli

int main(int argc, char** argv) {
  pqsift::TuneAllocatorForScans();
  // Exceptions do not cross the library boundary; this catches only what the CLI itself or a
  // third-party library throws (allocation failure, stream errors), so nothing ends in a crash.
  try {
    return pqsift::cli::Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "pqsift: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "pqsift: internal error: " << e.what() << '\n';
  }
  return 1;
}
