#include "findings/Findings.h"

#include "support/SafeIO.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <mutex>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

size_t countFindings(llvm::ArrayRef<ClangTidyError> Errors) {
  size_t N = 0;
  for (const ClangTidyError &E : Errors)
    N += !isCompilerError(E);
  return N;
}

bool hasCompilerErrors(llvm::ArrayRef<ClangTidyError> Errors) { return llvm::any_of(Errors, isCompilerError); }

const char *thirdPartyHeaderFilter() {
  return "/(third[-_]?party|3rd[-_]?party|external|extern|vendor|vendored|deps|_deps|submodules)/";
}

bool isSingleFileLibrary(llvm::StringRef File) {
  static std::mutex Mu;
  static llvm::StringMap<bool> Known;
  {
    std::lock_guard<std::mutex> Lock(Mu);
    if (auto It = Known.find(File); It != Known.end())
      return It->second;
  }
  bool Library = false;
  if (llvm::StringRef Ext = llvm::sys::path::extension(File); Ext == ".h" || Ext == ".hpp" || Ext == ".hh") {
    static const llvm::Regex Guard("^[ \t]*#[ \t]*(ifdef[ \t]+|if[ \t]+defined[ \t]*\\(?[ \t]*)[A-Za-z0-9_]+_"
                                   "IMPLEMENTATION([^A-Za-z0-9_]|$)",
                                   llvm::Regex::Newline);
    if (auto Text = readInputFile(File, "header", MaxSourceBytes, /*Record=*/false))
      Library = Guard.match((*Text)->getBuffer());
    else
      llvm::consumeError(Text.takeError());
  }
  std::lock_guard<std::mutex> Lock(Mu);
  Known[File] = Library;
  return Library;
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
    bool Library = Vendored.match(File) || (!isCompilerError(E) && (Outside(File) || isSingleFileLibrary(File)));
    return Library && !llvm::is_contained(Inputs, File);
  });
}

} // namespace mlperf::lint
