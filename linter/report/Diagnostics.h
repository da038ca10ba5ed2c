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
/// Whether the finding rests on a match by a member's name in an
/// uninstantiated template ("confidence": "low" in JSON and SARIF).
bool isLowConfidence(const clang::tidy::ClangTidyError &E);

} // namespace mlperf::lint
