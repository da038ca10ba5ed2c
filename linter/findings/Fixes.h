// Applies fix-its to files: all of a file's replacements or none of them,
// only to the content the findings were computed on (see FileGuard.h).
#pragma once

#include "support/FileGuard.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

/// Checks what --fix would write (absolute path -> fixed contents) before
/// anything is written: "" when it may be written, else one line saying why not.
using FixVerifier = std::function<std::string(const std::map<std::string, std::string> &Fixed)>;

struct FixRequest {
  const ContentHashes *Hashes = nullptr; // what each file held when clang read it
  bool FixErrors = false;                // --fix-errors: fix files with compile errors too
  std::set<std::string> Uncompilable;    // normalized paths: files with, or parsed with, compile errors
  FixVerifier Verify;                    // none: written unverified (--fix-unverified)
  std::string FormatStyle;               // --format-style: clang-format the code around the fixes ("": no)
};

struct FixResult {
  unsigned Applied = 0;            // fixes applied
  unsigned Skipped = 0;            // fixes that conflicted with another
  std::vector<std::string> Files;  // files rewritten
  std::vector<std::string> Errors; // "<file>: <problem>"; the file is untouched
  std::vector<std::string> Notes;  // files left alone on purpose
};

FixResult applyFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, const FixRequest &R);

/// \p Text with each bare "\n" written as "\r\n" when \p File mostly ends its
/// lines so: inserted lines end like their neighbours.
std::string matchLineEndings(llvm::StringRef Text, llvm::StringRef File);

} // namespace mlperf::lint
