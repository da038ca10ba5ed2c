#include "findings/Findings.h"

#include "llvm/Support/Path.h"
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

void dropLibraryFindings(std::vector<clang::tidy::ClangTidyError> &Errors, llvm::ArrayRef<std::string> Inputs,
                         llvm::ArrayRef<std::string> Roots) {
  llvm::Regex Vendored(thirdPartyHeaderFilter());
  auto Outside = [&](llvm::StringRef File) {
    if (Roots.empty() || !llvm::sys::path::is_absolute(File))
      return false;
    return llvm::none_of(Roots, [&](llvm::StringRef Root) {
      return Root == "/" || (File.starts_with(Root) && File.size() > Root.size() && File[Root.size()] == '/');
    });
  };
  // The inputs are searched only for a library's path: called for each of
  // 10,000 files, a set of the inputs built every time made replay quadratic.
  llvm::erase_if(Errors, [&](const clang::tidy::ClangTidyError &E) {
    const std::string &File = E.Message.FilePath;
    if (File.empty())
      return false;
    bool Library = Vendored.match(File) || (!isCompilerError(E) && Outside(File));
    return Library && !llvm::is_contained(Inputs, File);
  });
}

} // namespace mlperf::lint
