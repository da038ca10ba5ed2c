// Runs a LintRequest: collects the inputs, reads the configuration and the
// compile flags, runs the checks, and applies or exports the fixes.
#pragma once

#include "findings/Findings.h"
#include "project/Request.h"
#include "report/Cost.h"
#include "support/FileGuard.h"
#include "validate/Results.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

struct LintOutcome {
  std::vector<std::string> Files;                  // linted, absolute
  std::vector<clang::tidy::ClangTidyError> Errors; // findings and compiler errors
  std::vector<std::string> Problems;               // one line each, reported as errors
  std::vector<std::string> Messages;               // announcements for stderr
  std::vector<std::string> Notices;                // for stderr even under --quiet
  clang::tidy::ClangTidyStats Stats;               // findings suppressed, as clang-tidy counts them
  std::vector<std::string> Warnings;               // configuration warnings, printed even with --quiet
  ProviderFactory Providers;                       // the configuration, for the text report
  bool Fatal = false;                              // nothing was linted: a usage or configuration error
  std::shared_ptr<ContentHashes> Hashes;           // what each file held when clang read it
  std::set<std::string> Uncompilable;              // files --fix leaves alone without --fix-errors
  std::shared_ptr<const ::mlperf::validate::ValidationRun> Measured; // what the findings' notes quote
  std::map<std::pair<std::string, std::string>, unsigned> Counts;    // RunFindings::Counts
  std::shared_ptr<const CostTable> Costs;                            // the findings' estimates
};

/// One file's findings (measured notes added) as soon as it is linted.
using FileReport = std::function<void(size_t Index, size_t Total, const std::string &File,
                                      std::vector<clang::tidy::ClangTidyError> Errors)>;

LintOutcome runLint(LintRequest R, const FileReport &OnFile = {});

} // namespace mlperf::lint
