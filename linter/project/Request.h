// What one mlperf-lint invocation asks for, as a value: the command line is
// parsed into it, and running and reporting read only it.
#pragma once

#include "engine/Cache.h"
#include "engine/IncludeRecovery.h"
#include "findings/Filters.h"
#include "project/CompileFlags.h"
#include "project/Config.h"
#include "project/Shard.h"
#include "report/Report.h"
#include "support/DeviceModel.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

enum class Action { Lint, ListChecks, Explain, DumpConfig, ExplainConfig, VerifyConfig, Validate, Lsp };

struct LintRequest {
  Action What = Action::Lint;
  std::string ExplainCheck;
  std::vector<std::string> Paths;
  bool Headers = false;
  std::vector<std::string> Excludes; // --exclude globs, for the directory walk
  bool Verbose = false;
  ConfigRequest Config;
  FlagsRequest Flags; // Files are filled in once the inputs are collected
  Format OutputFormat = Format::Text;
  std::string OutputPath; // empty: stdout
  std::string SarifRoot;  // empty: the git top-level
  std::string ExportFixes;
  bool Fix = false;
  bool FixErrors = false;
  bool FixUnverified = false; // --fix-unverified: write fixes without linting the fixed code first
  std::string FormatStyle;    // --format-style: clang-format style for the code around fixes ("", "none": none)
  unsigned Jobs = 0;          // 0: one per core
  unsigned FilesInMemory = 0; // --files-in-memory; 0: as memory allows
  bool Quiet = false;
  bool CompilerStats = true; // clang's "N warnings generated." lines on stderr
  FilterRequest Filters;     // --line-filter, --diff, --baseline
  std::string WriteBaseline;
  std::string MeasuredResults;   // --validation-results: `validate`'s results for the notes ("": the stored ones)
  DeviceModel Device;            // --device: prices the findings' costs (no name: none priced)
  std::optional<double> MinCost; // --min-cost, in seconds
  bool SortByCost = false;       // --sort=cost
  std::optional<bool> UseColor;  // unset: when stdout is a terminal
  bool RelativePaths = false;    // --path-style=relative
  std::map<std::string, std::string> Overlays; // unsaved buffers by absolute path, linted instead of the files
  ParseOptions Parse;                          // --strict-includes, --cuda-path
  CacheSettings Cache;
  bool SharedPreamble = true;     // with the cache: precompile shared include prefixes into it
  std::optional<Shard> OnlyShard; // --shard=K/N
};

} // namespace mlperf::lint
