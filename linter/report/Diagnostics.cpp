#include "report/Diagnostics.h"

#include "BuildInfo.h"
#include "MlperfCheck.h"
#include "support/Installation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
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

bool isCompilerError(const ClangTidyError &E) { return E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError; }

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

std::string documentationDirectory() {
  static const std::string Dir = [] {
    std::string Installed = installPrefix() + "/share/doc/mlperf-lint";
    if (!installPrefix().empty() && llvm::sys::fs::is_directory(Installed + "/checks"))
      return Installed;
    return std::string(MLPERF_SOURCE_DIR "/docs");
  }();
  return Dir;
}

std::string percentEncoded(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

std::string fileUri(llvm::StringRef Path) { return "file://" + percentEncoded(Path); }

std::string readmeUri() {
  std::string Installed = documentationDirectory() + "/README.md";
  return fileUri(llvm::sys::fs::exists(Installed) ? Installed : MLPERF_SOURCE_DIR "/README.md");
}

std::string checkPageUri(llvm::StringRef Check) {
  if (!Check.consume_front("mlperf-") || Check.empty() || Check.contains('/'))
    return "";
  std::string Page = documentationDirectory() + "/checks/" + Check.str() + ".md";
  return llvm::sys::fs::exists(Page) ? fileUri(Page) : "";
}

} // namespace mlperf::lint
