// Output formats: clang-tidy's text, JSON and SARIF 2.1.0.
#pragma once

#include "report/Sarif.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace mlperf::lint {

enum class Format { Text, Json, Sarif, Html };

/// Line and column (1-based) of a byte offset in a file, read once and cached.
class LineTable {
public:
  std::pair<unsigned, unsigned> lineColumn(const std::string &File, unsigned Offset);

private:
  std::map<std::string, std::vector<unsigned>> LineStarts;
};

/// clang-tidy's text format (the diagnostic, the source line, a caret, the
/// fix-its and the notes), written to \p OS instead of stdout.
void writeText(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS, bool Color = false);
/// The JSON report (docs/json-output.md).
void writeJson(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS,
               bool RelativePaths = false);

struct ReportOptions {
  std::string SarifRoot;              // --sarif-root; empty: the git top-level
  std::vector<std::string> Problems;  // input errors, in the SARIF invocation
  bool Color = false;                 // text
  bool RelativePaths = false;         // JSON: paths relative to the working directory
};
/// Writes the report in \p F.
void writeReport(Format F, llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS,
                 const ReportOptions &Options = {});
llvm::StringRef severityOf(const clang::tidy::ClangTidyError &E);
/// Whether the finding rests on a match by a member's name in an
/// uninstantiated template ("confidence": "low" in JSON and SARIF).
bool isLowConfidence(const clang::tidy::ClangTidyError &E);

} // namespace mlperf::lint
