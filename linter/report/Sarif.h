// SARIF 2.1.0 as GitHub code scanning ingests it: repo-relative URIs under
// %SRCROOT%, rules with descriptions and help from the check pages,
// partialFingerprints as GitHub's upload action computes them, notes as
// related locations and code flows, compiler errors as tool notifications.
#pragma once

#include "report/Cost.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlperf::lint {

struct SarifOptions {
  std::string SrcRoot;               // absolute; empty: the git top-level of the working directory
  std::vector<std::string> Problems; // input and configuration errors, as notifications
  const CostTable *Costs = nullptr;  // estimates: properties.cost and rank
};

nlohmann::json sarifDocument(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, const SarifOptions &Options);
void writeSarif(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS,
                const SarifOptions &Options = {});

/// The directory holding `.git` above the working directory, else the
/// working directory itself.
std::string gitTopLevel();

/// GitHub's primaryLocationLineHash of every line of \p Text ("<hex>:<n>",
/// line 1 first), computed as codeql-action's fingerprints.ts does: a rolling
/// hash over the next 100 characters from the line's start with spaces and
/// tabs dropped and line ends normalised, and n counting earlier lines with
/// the same hash.
std::vector<std::string> lineHashes(llvm::StringRef Text);

/// The 1-based UTF-16 column of the byte at \p ByteColumn (1-based) of \p Line.
unsigned utf16Column(llvm::StringRef Line, unsigned ByteColumn);

} // namespace mlperf::lint
