// `mlperf-lint merge-sarif a.sarif b.sarif ... [-o all.sarif]`: the reports of
// the shards of a CI matrix as one. SARIF logs become one run per tool (rules
// and artifacts deduplicated, the indices into them renumbered); JSON reports
// one list of diagnostics. Identical results are kept once.
#pragma once

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlperf::lint {

/// The merged document of \p Inputs (file contents; \p Names for messages),
/// all SARIF or all mlperf-lint JSON.
llvm::Expected<std::string> mergeReports(const std::vector<std::string> &Names, const std::vector<std::string> &Inputs);

/// The subcommand; \p Argv holds the arguments after `merge-sarif`.
/// Exit status 0, or 2 with one line per problem.
int runMergeReports(int Argc, const char **Argv);

} // namespace mlperf::lint
