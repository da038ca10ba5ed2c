#include "report/Diagnostics.h"

#include "MlperfCheck.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

std::pair<unsigned, unsigned> LineTable::lineColumn(const std::string &File, unsigned Offset) {
  auto It = LineStarts.find(File);
  if (It == LineStarts.end()) {
    std::vector<unsigned> Starts = {0};
    if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
      llvm::StringRef Data = (*Buf)->getBuffer();
      for (size_t I = 0; I < Data.size(); ++I)
        if (Data[I] == '\n')
          Starts.push_back(I + 1);
    }
    It = LineStarts.emplace(File, std::move(Starts)).first;
  }
  const std::vector<unsigned> &S = It->second;
  auto Line = std::upper_bound(S.begin(), S.end(), Offset) - S.begin();
  return {static_cast<unsigned>(Line), Offset - S[Line - 1] + 1};
}

llvm::StringRef severityOf(const ClangTidyError &E) {
  if (E.DiagLevel == clang::tooling::Diagnostic::Error || E.IsWarningAsError)
    return "error";
  if (E.DiagLevel == clang::tooling::Diagnostic::Remark)
    return "remark";
  return "warning";
}

bool isLowConfidence(const ClangTidyError &E) {
  return llvm::any_of(E.Notes, [](const clang::tooling::DiagnosticMessage &N) {
    return llvm::StringRef(N.Message) == clang::tidy::mlperf::ByNameNote;
  });
}

} // namespace mlperf::lint
