// Whole-project analysis: before the checks run, every input file whose
// summary is missing or out of date is summarized (which functions run the
// model or train, which calls run on every step), the summaries are stored in
// the cache directory with the rest of the project's, and the checks of every
// file then see the functions other files define.
#pragma once

#include "Config.h"
#include "IncludeRecovery.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct WholeProjectResult {
  std::vector<std::string> Messages;  // stale summaries, an unreadable or unwritable cache
  size_t Summarized = 0, FromCache = 0;
};

/// `$XDG_CACHE_HOME/mlperf-lint/`, else `~/.cache/mlperf-lint/`; "" when neither is known.
std::string cacheDirectory();

/// Loads, refreshes and stores the summaries of the project around \p Roots
/// and installs them for this process's checks. With a single input and no
/// stored summaries there is nothing to share, and nothing is done.
WholeProjectResult prepareWholeProject(const std::vector<std::string> &Roots, const std::vector<std::string> &Files,
                                       const clang::tooling::CompilationDatabase &DB,
                                       const ProviderFactory &Providers, unsigned Jobs, const ParseOptions &Parse);

} // namespace mlperf::lint
