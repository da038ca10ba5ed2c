// Output formats: clang-tidy's text, JSON and SARIF 2.1.0.
#pragma once

#include "report/Cost.h"
#include "validate/Results.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

enum class Format { Text, Json, Sarif, Html };

/// clang-tidy's text format (the diagnostic, the source line, a caret, the
/// fix-its and the notes), written to \p OS instead of stdout.
void writeText(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS, bool Color = false);
/// The JSON report (docs/json-output.md).
void writeJson(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS, bool RelativePaths = false,
               const CostTable *Costs = nullptr);

struct ReportOptions {
  std::string SarifRoot;             // --sarif-root; empty: the git top-level
  std::vector<std::string> Problems; // input errors, in the SARIF invocation
  bool Color = false;                // text
  bool RelativePaths = false;        // JSON: paths relative to the working directory
  /// HTML: the validation results the findings pipeline read (none: unmeasured).
  const ::mlperf::validate::ValidationRun *Measured = nullptr;
  /// The findings' estimated costs (JSON, SARIF, HTML); none: not estimated.
  const CostTable *Costs = nullptr;
};
/// The format called \p Name on the command line; "text, json, sarif or html".
std::optional<Format> formatByName(llvm::StringRef Name);
std::string formatNames();
/// Writes the report in \p F.
void writeReport(Format F, llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS,
                 const ReportOptions &Options = {});
} // namespace mlperf::lint
