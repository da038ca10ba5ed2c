#include "Fixes.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace mlperf::lint {

FixResult applyFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors) {
  FixResult Out;
  std::map<std::string, clang::tooling::Replacements> PerFile;
  for (const clang::tidy::ClangTidyError &E : Errors) {
    if (E.Message.Fix.empty())
      continue;
    // One diagnostic's replacements go in together or not at all.
    std::map<std::string, clang::tooling::Replacements> Trial = PerFile;
    bool Ok = true;
    for (const auto &[File, Repls] : E.Message.Fix)
      for (const clang::tooling::Replacement &R : Repls)
        if (llvm::Error Err = Trial[R.getFilePath().str()].add(R)) {
          llvm::consumeError(std::move(Err));
          Ok = false;
        }
    if (Ok) {
      PerFile = std::move(Trial);
      ++Out.Applied;
    } else {
      ++Out.Skipped;
    }
  }
  for (const auto &[File, Repls] : PerFile) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Out.Errors.push_back(File + ": cannot read file to fix: " + Buf.getError().message());
      continue;
    }
    auto NewCode = clang::tooling::applyAllReplacements((*Buf)->getBuffer(), Repls);
    if (!NewCode) {
      Out.Errors.push_back(File + ": cannot apply fixes: " + llvm::toString(NewCode.takeError()));
      continue;
    }
    llvm::Error W = llvm::writeToOutput(File, [&](llvm::raw_ostream &OS) {
      OS << *NewCode;
      return llvm::Error::success();
    });
    if (W)
      Out.Errors.push_back(File + ": cannot write fixed file: " + llvm::toString(std::move(W)));
    else
      Out.Files.push_back(File);
  }
  return Out;
}

} // namespace mlperf::lint
