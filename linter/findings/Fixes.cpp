#include "findings/Fixes.h"

#include "clang/Tooling/Core/Replacement.h"

#include <map>

namespace mlperf::lint {

using clang::tooling::Replacement;
using clang::tooling::Replacements;

std::string matchLineEndings(llvm::StringRef Text, llvm::StringRef File) {
  size_t Lines = File.count('\n'), Crlf = File.count("\r\n");
  if (Crlf * 2 <= Lines || !Text.contains('\n'))
    return Text.str();
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' && (I == 0 || Text[I - 1] != '\r'))
      Out += '\r';
    Out += Text[I];
  }
  return Out;
}

namespace {
bool touchesUncompilable(const clang::tidy::ClangTidyError &E, const FixRequest &R) {
  if (R.FixErrors)
    return false;
  if (R.Uncompilable.count(normalizedPath(E.Message.FilePath)))
    return true;
  for (const auto &[File, Repls] : E.Message.Fix)
    if (R.Uncompilable.count(normalizedPath(File)))
      return true;
  return false;
}

llvm::Expected<std::string> applyTo(llvm::StringRef Current, const Replacements &Repls) {
  Replacements Matched;
  for (const Replacement &Rep : Repls) {
    std::string Text = matchLineEndings(Rep.getReplacementText(), Current);
    if (llvm::Error E = Matched.add(Replacement(Rep.getFilePath(), Rep.getOffset(), Rep.getLength(), Text)))
      return std::move(E);
  }
  return clang::tooling::applyAllReplacements(Current, Matched);
}
} // namespace

FixResult applyFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, const FixRequest &R) {
  FixResult Out;
  std::map<std::string, Replacements> PerFile;
  std::set<std::string> NotFixed;
  std::vector<std::set<std::string>> AppliedTo;  // the files of each fix taken
  for (const clang::tidy::ClangTidyError &E : Errors) {
    if (E.Message.Fix.empty())
      continue;
    if (touchesUncompilable(E, R)) {
      NotFixed.insert(E.Message.FilePath);
      continue;
    }
    // One diagnostic's replacements go in together or not at all.
    std::map<std::string, Replacements> Trial = PerFile;
    bool Ok = true;
    for (const auto &[File, Repls] : E.Message.Fix)
      for (const Replacement &Rep : Repls)
        if (llvm::Error Err = Trial[normalizedPath(Rep.getFilePath())].add(Rep)) {
          llvm::consumeError(std::move(Err));
          Ok = false;
        }
    if (Ok) {
      PerFile = std::move(Trial);
      AppliedTo.emplace_back();
      for (const auto &[File, Repls] : E.Message.Fix)
        for (const Replacement &Rep : Repls)
          AppliedTo.back().insert(normalizedPath(Rep.getFilePath()));
    } else {
      ++Out.Skipped;
    }
  }
  for (const std::string &File : NotFixed)
    Out.Notes.push_back(File + ": has compile errors; its fixes were not applied (--fix-errors applies them)");
  std::set<std::string> Failed;
  for (const auto &[File, Repls] : PerFile) {
    std::optional<uint64_t> Hash = R.Hashes ? R.Hashes->lookup(File) : std::nullopt;
    llvm::Error W = Hash ? rewriteChecked(File, *Hash, [&](llvm::StringRef Current) { return applyTo(Current, Repls); })
                         : llvm::createStringError(llvm::inconvertibleErrorCode(),
                                                   "changed while it was linted; not fixed (run mlperf-lint again)");
    if (W) {
      Out.Errors.push_back(File + ": " + llvm::toString(std::move(W)));
      Failed.insert(File);
    } else {
      Out.Files.push_back(File);
    }
  }
  for (const std::set<std::string> &Files : AppliedTo)
    Out.Applied += llvm::none_of(Files, [&](const std::string &F) { return Failed.count(F); });
  return Out;
}

} // namespace mlperf::lint
