// What one mlperf-lint invocation asks for, as a value: the command line is
// parsed into it, and running and reporting read only it.
#pragma once

#include "CompileFlags.h"
#include "Config.h"
#include "IncludeRecovery.h"
#include "Report.h"

#include <string>
#include <vector>

namespace mlperf::lint {

enum class Action { Lint, ListChecks, Explain, DumpConfig, Validate };

struct LintRequest {
  Action What = Action::Lint;
  std::string ExplainCheck;
  std::vector<std::string> Paths;
  bool Headers = false;
  ConfigRequest Config;
  FlagsRequest Flags;  // Files are filled in once the inputs are collected
  Format OutputFormat = Format::Text;
  std::string OutputPath;  // empty: stdout
  std::string ExportFixes;
  bool Fix = false;
  unsigned Jobs = 0;  // 0: one per core
  bool Quiet = false;
  ParseOptions Parse;  // --strict-includes, --cuda-path
};

} // namespace mlperf::lint
