// Runs the checks over files, in parallel, each file with its own context.
#pragma once

#include "Config.h"
#include "IncludeRecovery.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <vector>

namespace mlperf::lint {

struct RunResult {
  std::vector<clang::tidy::ClangTidyError> Errors;  // ordered by input file, deduplicated
  std::vector<std::string> Incomplete;              // one line per file with includes not found
};

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs,
                    const ParseOptions &Parse = {});

} // namespace mlperf::lint
