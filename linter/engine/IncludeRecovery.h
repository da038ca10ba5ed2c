// Runs clang-tidy over one file the way clang-tidy's runClangTidy does, and,
// unless includes are strict, recovers from headers that cannot be found: such
// an #include is skipped as if the header were empty, clang's error limit is
// lifted (ErrorLimit records no more errors than it would have), and the
// errors that follow from the missing declarations are counted instead of
// reported, so the rest of the file is still analysed. A file that uses a
// name of the standard library without including its header (`std::ifstream`
// without <fstream>, which an older standard library brought in through
// another header) is parsed once more with that header included first.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"

#include "analysis/Summaries.h"
#include "engine/RecoveryMemo.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlperf::lint {

struct ParseOptions {
  bool RecoverIncludes = true;                            // false: --strict-includes, a missing header is a fatal error
  std::shared_ptr<RecoveryMemo> Memo = newRecoveryMemo(); // shared by every copy of these options
  std::string CudaPath;                                   // --cuda-path, for CUDA inputs
  bool CheckProfile = false; // --enable-check-profile: each check's time per file, as clang-tidy's
  std::string ProfilePrefix; // --store-check-profile: written as JSON under this directory
  std::string VfsOverlay;    // --vfsoverlay: a clang VFS overlay YAML file over the real file system
  /// Asked at each top-level declaration parsed: true stops the parse there,
  /// and the checks do not run (the language server, for a text edited since).
  std::function<bool()> Cancelled;
  /// A whole-project run's settling of facts (engine/Settling.h), called once
  /// the file is parsed and before its checks run, with the function that
  /// summarizes it and whether the parse may be followed by another that
  /// replaces it (FactSettling::settle's Tentative): returns its summary and
  /// the summaries the checks are to see. Unset: the summary is taken after
  /// the checks, under the summaries installed now.
  using Settled =
      std::pair<clang::tidy::mlperf::FileSummary, std::shared_ptr<const clang::tidy::mlperf::ProjectSummaries>>;
  std::function<Settled(const std::string &File, llvm::function_ref<clang::tidy::mlperf::FileSummary()> Summarize,
                        bool Tentative)>
      Settle;
};

struct FileRun {
  std::vector<clang::tidy::ClangTidyError> Errors; // findings, and compiler errors when nothing was missing
  std::vector<std::string> MissingIncludes;        // as spelled, in order of first use, without duplicates
  std::vector<std::string> StandIns;               // those of them found among mlperf-lint's stand-in headers
  size_t FollowingErrors = 0;                      // compiler errors dropped because headers were missing
  std::string FirstFollowingError;                 // the first of them: `h.h:3:1: extraneous closing brace`
  /// Standard headers included for names the file uses without them
  /// (`<fstream> (std::basic_ifstream)`), in the order they were added.
  std::vector<std::string> StandardHeaders;
  /// The compiler's errors past the command's error limit, which are not
  /// reported (engine/ErrorLimit.h), for the recoveries to read.
  std::vector<clang::tooling::DiagnosticMessage> PastLimit;
  /// Names the missing headers would have declared that a permissive
  /// declaration stood in for (engine/MissingNames.h), qualified.
  std::vector<std::string> Declared;
  size_t DeclaredMembers = 0; // members given to the permissive type
  /// How the file was parsed instead of as its command says, and why (`parsed as C++17: ...`), or "".
  std::string Retried;
  /// clang's parses of the file: one, and one more for each recovery tried.
  unsigned Parses = 0;
  /// Whether this parse, against a shared preamble, may owe an error to it
  /// and not to the file: one about the precompiled header (a damaged or
  /// stale one), one of no place in the file, or one inside the standard
  /// library, which the recovery answers by parsing as C++17 (a standard the
  /// preamble was not built with); its recoveries are then neither searched
  /// nor remembered. Headers of the file that were not found, and the errors
  /// that follow, are the file's: the preamble's includes compiled.
  bool PreambleMayMatter = false;
  // The file's stderr block, written whole when it finishes: clang's "N warnings
  // generated." and "Error while processing FILE." lines, or "".
  std::string CompilerStats;
};

/// With \p Summary, the same parse also summarizes the file for the
/// whole-project analysis (with the summaries installed now).
/// \p AgainstPreamble: \p DB's command loads a shared preamble.
FileRun runTidyOnFile(clang::tidy::ClangTidyContext &Context, const clang::tooling::CompilationDatabase &DB,
                      const std::string &File, llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
                      const ParseOptions &Options, clang::tidy::mlperf::FileSummary *Summary = nullptr,
                      bool AgainstPreamble = false);

/// `FILE: N includes not found (a.h, b.h); results may be incomplete`, or ""
/// when every include was found; it names those that stand-in headers
/// replaced, how many compiler errors were set aside as following from
/// them and where the first one is, and the standard headers included for names the file uses
/// without them (`FILE: included <fstream> (std::basic_ifstream), whose names
/// the file uses without including it`).
std::string incompleteMessage(const std::string &File, const FileRun &Run);

/// The standard headers that declare the names \p Errors (a parse's
/// diagnostics) say are missing from namespace std or incomplete there
/// (`implicit instantiation of undefined template 'std::basic_ifstream<char>'`,
/// `no member named 'setw' in namespace 'std'`): each as the header's name
/// with its brackets and the name that asked for it, without duplicates.
std::vector<std::pair<std::string, std::string>>
missingStandardHeaders(const std::vector<clang::tidy::ClangTidyError> &Errors);
/// \p Incomplete (incompleteMessage's line, or "") with \p Notes on the
/// headers that the compile command found by name (`vgg.h taken from
/// lesson5/vgg.h`, or why one was not taken): `FILE: NOTES` alone, or before
/// "; results may be incomplete".
std::string withIncludeNotes(const std::string &File, const std::string &Incomplete,
                             const std::vector<std::string> &Notes);

} // namespace mlperf::lint
