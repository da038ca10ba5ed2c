// What every report format reads of a diagnostic: its line and column, its
// severity, and how sure the check was.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mlperf::lint {

/// Line and column (1-based) of a byte offset in a file, read once and cached.
class LineTable {
public:
  std::pair<unsigned, unsigned> lineColumn(const std::string &File, unsigned Offset);

private:
  std::map<std::string, std::vector<unsigned>> LineStarts;
};

llvm::StringRef severityOf(const clang::tidy::ClangTidyError &E);
/// A compiler's error (the file did not compile), not a finding; a check's
/// warning promoted by --warnings-as-errors is a finding.
bool isCompilerError(const clang::tidy::ClangTidyError &E);
/// Whether the finding rests on a match by a member's name in an
/// uninstantiated template ("confidence": "low" in JSON and SARIF).
bool isLowConfidence(const clang::tidy::ClangTidyError &E);

/// The documentation's directory: share/doc/mlperf-lint beside an installed
/// binary, else the source tree's docs/ (a build tree's binary).
std::string documentationDirectory();
/// The file:// URI of the README (the tool's home page in SARIF).
std::string readmeUri();
/// A file:// URI of \p Check's page (checks/<name>.md), or "" when it has none.
std::string checkPageUri(llvm::StringRef Check);
/// \p Path with the bytes a URI reserves %-encoded (RFC 3986).
std::string percentEncoded(llvm::StringRef Path);
/// The file:// URI of an absolute path.
std::string fileUri(llvm::StringRef Path);

} // namespace mlperf::lint
