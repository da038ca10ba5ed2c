// Runs the checks over files, in parallel, each file with its own context.
#pragma once

#include "Cache.h"
#include "Config.h"
#include "FileGuard.h"
#include "IncludeRecovery.h"
#include "Preamble.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <map>
#include <string>
#include <memory>
#include <set>
#include <vector>

namespace mlperf::lint {

struct RunResult {
  std::vector<clang::tidy::ClangTidyError> Errors;  // ordered by input file, deduplicated
  clang::tidy::ClangTidyStats Stats;                // summed over the files
  std::shared_ptr<ContentHashes> Hashes = std::make_shared<ContentHashes>();  // of every file clang read
  std::set<std::string> Uncompilable;  // normalized: inputs that did not compile, files with compile errors
  std::vector<std::string> Problems;   // "<file>: clang crashed while parsing (...)"
  std::vector<std::string> Incomplete;              // one line per file with includes not found
};

/// Called as each file finishes, one call at a time, with its own findings.
using FileDone = std::function<void(size_t Index, const std::vector<clang::tidy::ClangTidyError> &Errors)>;

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs,
                    const std::map<std::string, std::string> &Overlays = {}, const FileDone &OnFileDone = {},
                    const ParseOptions &Parse = {}, ResultCache *Cache = nullptr,
                    SharedPreambles *Preambles = nullptr);

} // namespace mlperf::lint
