// What the recoveries of a file's parse from headers not found settled on
// (the standard headers included first, C++17, the made-up declarations),
// so that a file parsed again starts from it: a later whole-project round or
// the repeat without the preamble in the same run, and, kept in the result
// cache's directory, the next run after an edit (one parse instead of the
// search's two to five). A recalled recovery is checked against the parse
// it gives (engine/IncludeRecovery.cpp): more errors than it ended with, or
// other headers not found, and the file searches again.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

/// What the recoveries add to a file's command: standard headers included
/// first, and the standard the file is parsed as.
struct Recovery {
  std::vector<std::string> PreIncludes;
  bool AsCxx17 = false;
  std::string Declarations; // the in-memory path of MissingNames' header, or ""
  std::vector<std::string> args() const;
  bool empty() const { return PreIncludes.empty() && !AsCxx17 && Declarations.empty(); }
};

struct RecalledRecovery {
  Recovery R;
  std::string Header; // R.Declarations' text
  std::vector<std::string> StandardHeaders, Declared;
  size_t DeclaredMembers = 0;
  std::string Retried;
  size_t Errors = 0;                // the compiler's errors of the parse it gave
  std::vector<std::string> Missing; // the headers not found then, as spelled
};

class RecoveryMemo {
public:
  /// Keeps the recoveries in files too, at the path \p PathOf gives for a
  /// file ("": that file's are not kept).
  void keepIn(std::function<std::string(const std::string &File)> PathOf);
  std::optional<RecalledRecovery> recall(const std::string &File);
  void remember(const std::string &File, RecalledRecovery E);
  /// Drops \p File's recovery (in memory and on disk): it no longer fits the file.
  void forget(const std::string &File);

private:
  std::string pathOf(const std::string &File) const { return PathOf ? PathOf(File) : ""; }
  std::mutex Mu;
  std::map<std::string, RecalledRecovery> ByFile;
  std::function<std::string(const std::string &)> PathOf;
};

std::shared_ptr<RecoveryMemo> newRecoveryMemo();

} // namespace mlperf::lint
