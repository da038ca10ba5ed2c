// A result cache: a file whose compile flags, configuration, profiles and
// contents, and the contents of every file its last parse read, are unchanged
// gets the findings of that parse back without being parsed again.
//
// An entry is one JSON file, <dir>/v1/<ab>/<key>.json, named by the hash of
// what is known before parsing (the tool's build, the effective
// configuration, the profiles' contents, the compile command, the main file's
// path and contents). It holds the files the parse read, each with the hash
// of its contents, and the findings; a lookup re-hashes those files. Entries
// are written to a temporary file and renamed (concurrent runs see an old or
// a new entry, never half of one), a hit refreshes the entry's time, and
// trim() removes the least recently used entries beyond the size limit. An
// unreadable or damaged entry is a miss.
#pragma once

#include "Config.h"
#include "Preamble.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

inline constexpr uint64_t DefaultCacheBytes = 512ull << 20;

struct CacheSettings {
  bool Enabled = true;
  std::string Dir;                      // empty: $XDG_CACHE_HOME/mlperf-lint or ~/.cache/mlperf-lint
  uint64_t MaxBytes = DefaultCacheBytes;
};

/// The default cache directory, or "" when neither $XDG_CACHE_HOME nor a home
/// directory is known.
std::string defaultCacheDir();
/// "512M", "2G", "100000" (bytes), "64K"; nullopt when malformed or zero.
std::optional<uint64_t> parseByteSize(llvm::StringRef Text);

/// A 128-bit hash of \p Data, in hex; of a file's contents (nullopt when unreadable).
std::string hashText(llvm::StringRef Data);
std::optional<std::string> contentHash(llvm::StringRef Path);

/// A file system that records the regular files opened through it, with the
/// modification time each had when it was opened.
class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) : ProxyFileSystem(std::move(FS)) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override;

  struct Opened {
    std::string Path;
    llvm::sys::TimePoint<> ModTime;
    bool operator<(const Opened &O) const { return Path < O.Path; }
  };
  const std::set<Opened> &opened() const { return Files; }

private:
  std::set<Opened> Files;
};

class ResultCache {
public:
  /// A cache in \p S.Dir (or the default directory); an error when the
  /// directory cannot be created.
  static llvm::Expected<std::unique_ptr<ResultCache>> open(const CacheSettings &S,
                                                           const clang::tooling::CompilationDatabase &DB,
                                                           ProviderFactory Providers);

  /// The entry name for \p File, or "" when the file cannot be cached (no
  /// compile command, unreadable). Thread-safe, as are the two below.
  std::string key(const std::string &File) const;
  /// Fills \p Errors with the stored findings when the entry exists and every
  /// file it records still has the recorded contents.
  bool lookup(const std::string &Key, std::vector<clang::tidy::ClangTidyError> &Errors);
  /// Records the findings of a parse and the files it read. Findings with
  /// compiler errors are not stored (a missing header leaves no trace to check).
  /// A parse against preamble \p P read the files P was built from instead
  /// of P's precompiled header.
  void store(const std::string &Key, const std::vector<clang::tidy::ClangTidyError> &Errors,
             const RecordingFileSystem &Read, const Preamble *P = nullptr);
  /// Removes the least recently used entries until the cache fits its limit.
  void trim();

  unsigned hits() const { return Hits; }
  const std::string &dir() const { return Dir; }

private:
  ResultCache(std::string Dir, uint64_t MaxBytes, const clang::tooling::CompilationDatabase &DB,
              ProviderFactory Providers);
  std::string entryPath(const std::string &Key) const;
  /// contentHash, once per file and run: the files of a tree include the
  /// same headers.
  std::optional<std::string> hashOnce(const std::string &Path);

  std::string Dir;
  uint64_t MaxBytes;
  const clang::tooling::CompilationDatabase &DB;
  ProviderFactory Providers;
  std::string ToolIdentity;
  std::string Cwd;
  std::atomic<unsigned> Hits{0};
  std::mutex HashMu;
  std::map<std::string, std::optional<std::string>> Hashes;
};

/// Findings as JSON and back (all of a ClangTidyError: message, notes, ranges,
/// fixes, level, aliases); fromJson returns false for anything malformed.
std::string errorsToJson(const std::vector<clang::tidy::ClangTidyError> &Errors);
bool errorsFromJson(llvm::StringRef Json, std::vector<clang::tidy::ClangTidyError> &Errors);

} // namespace mlperf::lint
