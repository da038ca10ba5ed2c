#include "findings/Fixes.h"

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"

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

/// \p Current with \p Repls applied; with a \p Style, the code around them is
/// cleaned up and formatted as clang-tidy's --format-style does.
llvm::Expected<std::string> applyTo(llvm::StringRef Current, const Replacements &Repls, llvm::StringRef File,
                                    llvm::StringRef Style) {
  Replacements Matched;
  for (const Replacement &Rep : Repls) {
    std::string Text = matchLineEndings(Rep.getReplacementText(), Current);
    if (llvm::Error E = Matched.add(Replacement(Rep.getFilePath(), Rep.getOffset(), Rep.getLength(), Text)))
      return std::move(E);
  }
  if (Style.empty())
    return clang::tooling::applyAllReplacements(Current, Matched);
  llvm::Expected<clang::format::FormatStyle> Format = clang::format::getStyle(Style, File, "none", Current);
  if (!Format)
    return Format.takeError();
  llvm::Expected<Replacements> Cleaned = clang::format::cleanupAroundReplacements(Current, Matched, *Format);
  if (!Cleaned)
    return Cleaned.takeError();
  llvm::Expected<Replacements> Formatted = clang::format::formatReplacements(Current, *Cleaned, *Format);
  if (!Formatted)
    return Formatted.takeError();
  return clang::tooling::applyAllReplacements(Current, *Formatted);
}

/// Each file's contents with its fixes applied, in memory, when it still
/// holds what was linted; what went wrong for the others goes to \p Errors.
std::map<std::string, std::string> fixedContents(const std::map<std::string, Replacements> &PerFile,
                                                 const FixRequest &R, std::map<std::string, std::string> &Errors) {
  std::map<std::string, std::string> Fixed;
  for (const auto &[File, Repls] : PerFile) {
    std::optional<uint64_t> Hash = R.Hashes ? R.Hashes->lookup(File) : std::nullopt;
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Hash) {
      Errors[File] = "changed while it was linted; not fixed (run mlperf-lint again)";
      continue;
    }
    if (!Buf || contentHash((*Buf)->getBuffer()) != *Hash) {
      Errors[File] = "changed since it was linted; not fixed (run mlperf-lint again)";
      continue;
    }
    llvm::Expected<std::string> Text = applyTo((*Buf)->getBuffer(), Repls, File, R.FormatStyle);
    if (!Text)
      Errors[File] = llvm::toString(Text.takeError());
    else
      Fixed[File] = std::move(*Text);
  }
  return Fixed;
}

/// The fixes of \p PerFile verified together: an empty map when they may be
/// written, else the line each file gets.
std::map<std::string, std::string> verify(const std::map<std::string, Replacements> &PerFile, const FixRequest &R) {
  std::map<std::string, std::string> Errors;
  std::map<std::string, std::string> Fixed = fixedContents(PerFile, R, Errors);
  if (Fixed.empty())
    return Errors;
  std::string Why = R.Verify(Fixed);
  if (!Why.empty())
    for (const auto &[File, Text] : Fixed)
      Errors[File] = "fixes not applied: " + Why + " (--fix-unverified writes them anyway)";
  return Errors;
}
} // namespace

FixResult applyFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, const FixRequest &R) {
  FixResult Out;
  std::map<std::string, Replacements> PerFile;
  std::set<std::string> NotFixed;
  std::vector<std::set<std::string>> AppliedTo; // the files of each fix taken
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
  if (R.Verify)
    for (auto &[File, Why] : verify(PerFile, R)) {
      Out.Errors.push_back(File + ": " + Why);
      Failed.insert(File);
    }
  for (const auto &[File, Repls] : PerFile) {
    if (Failed.count(File))
      continue;
    std::optional<uint64_t> Hash = R.Hashes ? R.Hashes->lookup(File) : std::nullopt;
    llvm::Error W =
        Hash ? rewriteChecked(File, *Hash,
                              [&](llvm::StringRef Current) { return applyTo(Current, Repls, File, R.FormatStyle); })
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
