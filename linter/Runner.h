// Runs the checks over files, in parallel, each file with its own context.
#pragma once

#include "Config.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <string>
#include <vector>

namespace mlperf::lint {

struct RunResult {
  std::vector<clang::tidy::ClangTidyError> Errors;  // ordered by input file, deduplicated
};

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs,
                    const std::map<std::string, std::string> &Overlays = {});

} // namespace mlperf::lint
