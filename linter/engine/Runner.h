// Runs the checks over files, in parallel, each file with its own context.
#pragma once

#include "engine/Cache.h"
#include "project/Config.h"
#include "support/FileGuard.h"
#include "engine/IncludeRecovery.h"
#include "engine/Preamble.h"

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

struct RunResult {
  std::vector<clang::tidy::ClangTidyError> Errors;  // ordered by input file, deduplicated
  clang::tidy::ClangTidyStats Stats;                // summed over the files
  std::shared_ptr<ContentHashes> Hashes = std::make_shared<ContentHashes>();  // of every file clang read
  std::set<std::string> Uncompilable;  // normalized: inputs that did not compile, files with compile errors
  std::vector<std::string> Problems;   // "<file>: clang crashed while parsing (...)"
  std::vector<std::string> Incomplete;              // one line per file with includes not found
};

/// One file's run: what it reported, and what the whole-project analysis and
/// the result cache need of it.
struct FileResult {
  CachedRun Run;
  std::optional<std::string> Crash;  // clang crashed while parsing
  bool FromCache = false;
  std::optional<clang::tidy::mlperf::FileSummary> Summary;  // of a parse, when asked for
  /// What a cache entry records of a parse (none for a hit or a crash).
  struct Parsed {
    std::vector<std::string> Missing;
    llvm::IntrusiveRefCntPtr<RecordingFileSystem> Read;
    std::shared_ptr<const Preamble> P;
  };
  std::optional<Parsed> Entry;
};

struct RunSettings {
  unsigned Jobs = 1;
  const std::map<std::string, std::string> *Overlays = nullptr;  // unsaved buffers: no cache, no preamble
  ParseOptions Parse;
  ResultCache *Cache = nullptr;
  SharedPreambles *Preambles = nullptr;
  bool Summarize = false;  // summarize each parsed file in the same parse
  /// The cache lookup's key material for a file's dependencies on other
  /// files; nullopt: the file is not looked up. Unset: "" for every file.
  std::function<std::optional<std::string>(const std::string &File)> Dependencies;
};

/// Called as each file finishes, one call at a time, with its own findings.
using FileDone = std::function<void(size_t Index, const std::vector<clang::tidy::ClangTidyError> &Errors)>;

/// Runs (or replays from the cache) each of \p Files; the content hashes of
/// what the parses read go into \p Hashes. \p OnResult is called as each
/// file finishes, one call at a time.
std::vector<FileResult> runFiles(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                                 const ProviderFactory &Providers, const RunSettings &S, ContentHashes &Hashes,
                                 const std::function<void(size_t Index, const FileResult &)> &OnResult = {});

/// Stores a parse's results under the key made with \p Dependencies.
void storeResult(ResultCache &Cache, const std::string &File, const FileResult &R, const std::string &Dependencies);

/// The files' results as one report.
RunResult combineResults(const std::vector<std::string> &Files, std::vector<FileResult> Results,
                         std::shared_ptr<ContentHashes> Hashes);

} // namespace mlperf::lint
