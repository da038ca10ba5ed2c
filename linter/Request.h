// What one mlperf-lint invocation asks for, as a value: the command line is
// parsed into it, and running and reporting read only it.
#pragma once

#include "Cache.h"
#include "CompileFlags.h"
#include "Config.h"
#include "Report.h"
#include "Shard.h"

#include <optional>
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
  CacheSettings Cache;
  bool SharedPreamble = true;      // with the cache: precompile shared include prefixes into it
  std::optional<Shard> OnlyShard;  // --shard=K/N
};

} // namespace mlperf::lint
