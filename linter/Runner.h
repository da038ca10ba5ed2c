// Runs the checks over files, in parallel, each file with its own context.
#pragma once

#include "Cache.h"
#include "Config.h"
#include "Preamble.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <vector>

namespace mlperf::lint {

struct RunResult {
  std::vector<clang::tidy::ClangTidyError> Errors;  // ordered by input file, deduplicated
};

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs, ResultCache *Cache = nullptr,
                    SharedPreambles *Preambles = nullptr);

} // namespace mlperf::lint
