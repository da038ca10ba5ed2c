#include "findings/Findings.h"

#include "llvm/Support/Regex.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

size_t countFindings(llvm::ArrayRef<ClangTidyError> Errors) {
  size_t N = 0;
  for (const ClangTidyError &E : Errors)
    N += E.DiagLevel != ClangTidyError::Error || E.IsWarningAsError;
  return N;
}

bool isCompilerError(const ClangTidyError &E) { return E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError; }

bool hasCompilerErrors(llvm::ArrayRef<ClangTidyError> Errors) { return llvm::any_of(Errors, isCompilerError); }

const char *thirdPartyHeaderFilter() {
  return "/(third[-_]?party|3rd[-_]?party|external|extern|vendor|vendored|deps|_deps|submodules)/";
}

void dropVendoredFindings(std::vector<clang::tidy::ClangTidyError> &Errors, llvm::ArrayRef<std::string> Inputs) {
  llvm::Regex Vendored(thirdPartyHeaderFilter());
  // The inputs are searched only for a vendored path: called for each of
  // 10,000 files, a set of the inputs built every time made replay quadratic.
  llvm::erase_if(Errors, [&](const clang::tidy::ClangTidyError &E) {
    const std::string &File = E.Message.FilePath;
    return Vendored.match(File) && !llvm::is_contained(Inputs, File);
  });
}

} // namespace mlperf::lint
