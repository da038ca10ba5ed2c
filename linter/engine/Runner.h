// Runs the checks over files, in parallel, each file with its own context.
#pragma once

#include "engine/Cache.h"
#include "engine/IncludeRecovery.h"
#include "engine/Preamble.h"
#include "engine/Providers.h"
#include "engine/Settling.h"
#include "support/FileGuard.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

/// One file's run: what it reported, and what the whole-project analysis and
/// the result cache need of it.
struct FileResult {
  FileFindings Run;
  std::optional<clang::tidy::mlperf::FileSummary> Summary; // of a parse, when asked for
  /// What a cache entry records of a parse (none for a hit or a crash).
  struct Parsed {
    std::vector<std::string> Missing;
    llvm::IntrusiveRefCntPtr<RecordingFileSystem> Read;
    std::shared_ptr<const Preamble> P;
  };
  std::optional<Parsed> Entry;
  bool Skipped = false; // not started: the run was interrupted (InterruptibleRun)
};

struct RunSettings {
  unsigned Jobs = 1;
  const std::map<std::string, std::string> *Overlays = nullptr; // unsaved buffers: no cache, no preamble
  ParseOptions Parse;
  ResultCache *Cache = nullptr;
  SharedPreambles *Preambles = nullptr;
  bool Summarize = false; // summarize each parsed file in the same parse
  /// The cache lookup's key material for a file's dependencies on other
  /// files; nullopt: the file is not looked up. Unset: "" for every file.
  std::function<std::optional<std::string>(const std::string &File)> Dependencies;
  /// Settles the whole-project facts of the files run together in memory
  /// (Parse.Settle calls it); it sets how many run at once.
  FactSettling *Settling = nullptr;
  /// Files a whole-project run holds in memory while their facts settle
  /// (filesInMemory() in Jobs.h).
  unsigned FilesInMemory = 1;
};

/// Called once for each file, in input order, with its final result.
using FileDone = std::function<void(size_t Index, FileFindings Findings)>;

/// Runs (or replays from the cache) each of \p Files; the content hashes of
/// what the parses read go into \p Hashes. \p OnResult is called as each
/// file finishes, one call at a time. After an interrupt no file is started:
/// those are Skipped, without a call.
std::vector<FileResult> runFiles(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                                 const ProviderFactory &Providers, const RunSettings &S, ContentHashes &Hashes,
                                 const std::function<void(size_t Index, const FileResult &)> &OnResult = {});

/// Stores a parse's results under the key made with \p Dependencies.
void storeResult(ResultCache &Cache, const std::string &File, const FileResult &R, const std::string &Dependencies);

} // namespace mlperf::lint
