// What a run reports of one file, whichever way it was obtained (a parse, a
// cache replay, the language server's buffer), and how findings are counted.
#pragma once

#include "report/Diagnostics.h" // isCompilerError

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

/// One file's result: its diagnostics (findings with their notes and fix-its,
/// and compiler errors), whether it compiled, what was missing, and how it
/// was obtained. The result cache stores it; the findings pipeline filters it.
struct FileFindings {
  std::string File;                                // the input, absolute
  std::vector<clang::tidy::ClangTidyError> Errors; // findings and compiler errors
  std::string Incomplete;                          // the "N includes not found" line, or ""
  bool FollowingErrors = false; // compile errors dropped because headers were missing: it did not compile
  std::string CompilerStats;    // the file's stderr block (FileRun::CompilerStats), or ""
  clang::tidy::ClangTidyStats Stats;
  std::optional<std::string> Crash; // clang crashed while parsing ("signal 11: ...")
  bool FromCache = false;           // replayed from the result cache
  double Seconds = 0;               // wall time of its parse (or replay)
  unsigned Parses = 0;              // clang's parses of it: recoveries, and again without the preamble, add to one
};

/// Findings that count for the exit status: warnings, and errors raised by
/// --warnings-as-errors (compiler errors are problems, not findings).
size_t countFindings(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);
bool hasCompilerErrors(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

/// Vendored code inside a project: third_party/, external/, vendor/, ...
const char *thirdPartyHeaderFilter();
/// A single-file library copied into the project, by stb's convention that
/// many follow: a header whose implementation is compiled under
/// `#ifdef NAME_IMPLEMENTATION` in the one file that asks for it (read once
/// per process).
bool isSingleFileLibrary(llvm::StringRef File);
/// Drops findings located in library code (not in an input file itself):
/// vendored headers inside the project (under third_party/ and the like, or
/// single-file libraries), and any file outside \p Roots (the
/// project roots; none: no such rule) however it was included (-isystem, -I,
/// a compilation database). Their cost is reported where the project calls
/// them. Compiler errors outside the roots are kept: they say the flags are wrong.
void dropLibraryFindings(std::vector<clang::tidy::ClangTidyError> &Errors, llvm::ArrayRef<std::string> Inputs,
                         llvm::ArrayRef<std::string> Roots);

} // namespace mlperf::lint
