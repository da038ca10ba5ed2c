// A result cache: a file whose compile flags, configuration, profiles and
// contents, and the contents of every file its last parse read, are unchanged
// gets the findings of that parse back without being parsed again.
//
// An entry is one JSON file, <dir>/v1/<ab>/<key>.json, named by the hash of
// what is known before parsing (the tool's build, the effective
// configuration, the profiles' contents, the compile command, the main file's
// path and contents, the parse options, what the file's analysis reads of the
// whole-project summaries of the other files). It holds the files the parse read, each with the hash of its
// contents, the paths where a header that was not found was looked for, and
// what the run reported: findings, the "includes not found" line, clang's
// counts; a lookup re-hashes those files and checks those paths are still absent. Entries
// are written to a temporary file and renamed (concurrent runs see an old or
// a new entry, never half of one), a hit refreshes the entry's time, and
// trim() removes the least recently used entries beyond the size limit. An
// unreadable or damaged entry is a miss.
#pragma once

#include "engine/IncludeRecovery.h"
#include "engine/Preamble.h"
#include "engine/Providers.h"
#include "engine/RecordingFileSystem.h"
#include "findings/Findings.h"
#include "support/FileGuard.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

inline constexpr uint64_t DefaultCacheBytes = 512ull << 20;

/// `$XDG_CACHE_HOME/mlperf-lint/`, else `~/.cache/mlperf-lint/`; "" when neither is known.
std::string cacheDirectory();

struct CacheSettings {
  bool Enabled = true;
  std::string Dir; // empty: cacheDirectory() ($XDG_CACHE_HOME/mlperf-lint or ~/.cache/mlperf-lint)
  uint64_t MaxBytes = DefaultCacheBytes;
};

/// What one file's run reported, as an entry replays it (all but File, Crash,
/// FromCache and Seconds: a crash is never stored).
using CachedRun = FileFindings;
/// "512M", "2G", "100000" (bytes), "64K"; nullopt when malformed or zero.
std::optional<uint64_t> parseByteSize(llvm::StringRef Text);

class ResultCache {
public:
  /// A cache in \p S.Dir (or the default directory); an error when the
  /// directory cannot be created. \p Parse is part of every key.
  static llvm::Expected<std::unique_ptr<ResultCache>> open(const CacheSettings &S,
                                                           const clang::tooling::CompilationDatabase &DB,
                                                           ProviderFactory Providers, const ParseOptions &Parse);

  /// The entry name for \p File, whose analysis read \p Dependencies of the
  /// project's summaries (ProjectSummaries::dependencies), or "" when the file
  /// cannot be cached (no compile command, unreadable). Thread-safe, as are
  /// the two below.
  std::string key(const std::string &File, const std::string &Dependencies) const;
  /// The stored run when the entry exists, every file it records still has
  /// the recorded contents and every header not found is still absent; the
  /// files' contents go into \p Hashes as a parse would have recorded them.
  std::optional<CachedRun> lookup(const std::string &Key, ContentHashes &Hashes);
  /// Records a run and the files its parse read. Runs with compiler errors
  /// are not stored. \p Missing are the includes not found, as spelled: the
  /// absent paths ending in them are recorded. A parse against preamble \p P
  /// read the files P was built from instead of P's precompiled header.
  void store(const std::string &Key, const CachedRun &Run, const std::vector<std::string> &Missing,
             const RecordingFileSystem &Read, const Preamble *P = nullptr);
  /// Where \p File's recovery from headers not found is kept for later runs
  /// (engine/RecoveryMemo.h): by the tool, the file's name and compile
  /// commands, not its contents (a recalled recovery is checked against the
  /// parse it gives); "" for a file without a command.
  std::string recoveryPath(const std::string &File) const;
  /// Removes the least recently used entries until the cache fits its limit.
  void trim();
  /// One line for each damaged entry that lookup dropped (its file was linted
  /// again), and one for the first write that failed.
  std::vector<std::string> takeWarnings();
  /// Notes a write into the cache's directory that failed (\p What: the file
  /// and why): the first one becomes a warning; findings are unaffected.
  void writeFailed(const std::string &What);

  const std::string &dir() const { return Dir; }

private:
  ResultCache(std::string Dir, uint64_t MaxBytes, const clang::tooling::CompilationDatabase &DB,
              ProviderFactory Providers, const ParseOptions &Parse);
  std::string entryPath(const std::string &Key) const;
  /// contentHash, once per file and run: the files of a tree include the
  /// same headers.
  struct FileHashes {
    std::string Strong; // fileContentHash's
    uint64_t Guard = 0; // FileGuard's contentHash, for --fix
  };
  std::optional<FileHashes> hashOnce(const std::string &Path);
  /// Reads an entry's JSON \p Body into \p Run, the files it read (with
  /// their --fix hashes) and its fix ranges; false when a file it read has
  /// changed or a header not found now exists. Throws on malformed JSON.
  bool readEntry(llvm::StringRef Body, const std::string &Key, CachedRun &Run,
                 std::vector<std::pair<std::string, uint64_t>> &Read, nlohmann::json &FixRanges);

  std::string Dir;
  uint64_t MaxBytes;
  const clang::tooling::CompilationDatabase &DB;
  ProviderFactory Providers;
  std::string ToolIdentity;
  std::string ParseMaterial;
  std::string Cwd;
  std::mutex HashMu;
  std::map<std::string, std::optional<FileHashes>> Hashes;
  std::vector<std::string> Warnings; // under HashMu
  bool WriteFailed = false;          // under HashMu
};

/// Findings as JSON and back (all of a ClangTidyError: message, notes, ranges,
/// fixes, level, aliases); fromJson returns false for anything malformed.
std::string errorsToJson(const std::vector<clang::tidy::ClangTidyError> &Errors);
bool errorsFromJson(llvm::StringRef Json, std::vector<clang::tidy::ClangTidyError> &Errors);

} // namespace mlperf::lint
