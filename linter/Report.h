// Output formats: clang-tidy's text, JSON and SARIF 2.1.0.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"

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

void writeJson(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS);
void writeSarif(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, llvm::raw_ostream &OS);
llvm::StringRef severityOf(const clang::tidy::ClangTidyError &E);

} // namespace mlperf::lint
