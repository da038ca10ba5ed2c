// A shared preamble: files that begin with the same system includes and are
// compiled with the same flags (every file starting with
// `#include <torch/torch.h>`) are parsed against one precompiled header of
// those includes instead of each parsing them again.
//
// A file's prefix is its leading `#include <...>` lines (blank lines and `//`
// comments between them allowed). The precompiled header of a prefix and a
// command is built on the first parse that needs it, in <cache dir>/preamble/,
// with the files it read and their hashes beside it; a later run reuses it
// while they are unchanged. A header of the prefix that is not found is left
// out of it, as each file's parse skips it (that parse looks it up again and
// reports it, or finds its stand-in). Only prefixes shared by at least two input files
// are precompiled; each file takes the leading part of its prefix that the
// most files share (the longest of those), so files that all begin with
// <torch/torch.h> share one preamble whatever they include after it. A file
// that shares its prefix with no other input uses the longest part of it that
// was precompiled before, and a run of a single file precompiles its prefix:
// linted alone, a file costs a parse against a preamble, not a full one. A parse
// against a preamble is repeated without it when an error may come from the
// preamble (FileRun::PreambleMayMatter), so the preamble never changes what is
// reported; the file's own errors, and its headers that were not found, do not
// (the prefix compiled without an error), and its recoveries from them use the
// preamble too.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mlperf::lint {

/// The leading `#include <...>` lines of \p Source, one per line, or "".
std::string includePrefix(llvm::StringRef Source);

struct Preamble {
  std::string Pch;                                         // the precompiled header
  std::vector<std::pair<std::string, std::string>> Inputs; // files it was built from, with content hashes
  std::vector<std::pair<std::string, uint64_t>> Guards;    // the same files' hashes for --fix (FileGuard's)
};

class SharedPreambles {
public:
  /// Preambles for the prefixes that at least two of \p Files share (or one
  /// file alone, or that were built before), kept in \p Dir. A file's prefix
  /// is read from \p Buffers (path -> an editor's unsaved text) when it is
  /// there, else from the file.
  SharedPreambles(const clang::tooling::CompilationDatabase &DB, std::string Dir, const std::vector<std::string> &Files,
                  const std::map<std::string, std::string> *Buffers = nullptr);

  /// The preamble of \p File, built (once, by the first caller) when needed;
  /// null when the file has none or it cannot be built. Thread-safe.
  std::shared_ptr<const Preamble> forFile(const std::string &File);

  /// \p DB's commands for \p File, parsed against \p P.
  static std::unique_ptr<clang::tooling::CompilationDatabase>
  withPreamble(const clang::tooling::CompilationDatabase &DB, const Preamble &P);

  unsigned built() const { return Built; }

private:
  struct Group {
    std::string Key, Prefix, Directory;
    std::vector<std::string> Args; // the command without its input and output
    std::once_flag Once;
    std::shared_ptr<const Preamble> Result;
  };
  std::shared_ptr<const Preamble> build(Group &G);

  std::string Dir;
  std::map<std::string, std::shared_ptr<Group>> ByFile;
  std::atomic<unsigned> Built{0};
};

} // namespace mlperf::lint
