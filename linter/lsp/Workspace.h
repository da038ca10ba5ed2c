// The open documents of a language server session and the worker that lints
// them. Each document's text has a generation; its findings are kept with the
// generation (and the versions of every open buffer) they were computed
// from, so a code action is offered only while the buffer is still that
// text. One worker thread lints the latest text of each document: an edit
// waits out the debounce, a lint whose document changes, closes or whose
// server stops meanwhile is cancelled (the parse stops at its next top-level
// declaration) and discarded rather than published.
#pragma once

#include "lsp/Convert.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mlperf::lint::lsp {

struct LintedBuffer {
  std::vector<Finding> Findings;
  std::vector<std::string> Problems; // one line each, for the client's log
};
/// Lints \p Path reading \p Buffers (path → text: every open document)
/// instead of those files; may stop early once \p Cancelled returns true
/// (its result is then discarded).
using Linter = std::function<LintedBuffer(const std::string &Path, const std::map<std::string, std::string> &Buffers,
                                          const std::function<bool()> &Cancelled)>;
/// The client's end and the server's log, shared by its threads: whole
/// messages and lines, and no message after close() (`exit`).
class Channel {
public:
  Channel(std::ostream &Out, llvm::raw_ostream &Log) : Out(Out), Log(Log) {}
  void send(const nlohmann::json &Message);
  void log(const std::string &Line);
  void close();

private:
  std::mutex Lock;
  std::ostream &Out;
  llvm::raw_ostream &Log;
  bool Closed = false;
};

class Workspace {
public:
  Workspace(Linter Lint, std::chrono::milliseconds Debounce, Channel &Client);
  ~Workspace() { stop(); }

  void setDebounce(std::chrono::milliseconds D);
  /// Each of these takes the client's version (null when it sent none).
  void open(const std::string &Path, const std::string &Uri, std::string Text, const nlohmann::json &Version);
  void change(const std::string &Path, std::string Text, const nlohmann::json &Version);
  /// Lints now, unless the findings of this text are there or on the way.
  void save(const std::string &Path, std::optional<std::string> Text);
  void close(const std::string &Path);
  /// The document's text now ("" when it is not open).
  std::string text(const std::string &Path);
  /// The quick fixes of the findings on lines [From, To] of \p Path, as
  /// LSP CodeActions whose WorkspaceEdit names each document's version
  /// (\p DocumentChanges) or not; none when the findings are not of the
  /// buffer as it is now (edited since), or a fix touches another open
  /// document that changed since.
  nlohmann::json codeActions(const std::string &Path, unsigned From, unsigned To, bool DocumentChanges);
  /// Drops the lints not started; cancels the running one, waits for it and
  /// drops its result.
  void stop();

private:
  struct Document {
    std::string Uri, Text;
    nlohmann::json Version;
    uint64_t Generation = 0;
  };
  struct Snapshot {
    uint64_t Generation = 0;
    std::map<std::string, std::string> Buffers;
    std::map<std::string, uint64_t> Generations; // of each open document, as read
    std::map<std::string, nlohmann::json> Versions;
  };
  struct Diagnosed {
    Snapshot Read;
    std::vector<Finding> Findings;
  };
  using Clock = std::chrono::steady_clock;

  void work();
  void cancelLintOf(const std::string &Path);
  Snapshot snapshot(const std::string &Path) const;
  void finish(const std::string &Path, Snapshot Read, LintedBuffer Result, std::chrono::milliseconds Took);
  std::optional<nlohmann::json> editOf(const Finding &F, const Snapshot &Read, bool DocumentChanges) const;

  Linter Lint;
  std::chrono::milliseconds Debounce;
  Channel &Client;
  std::mutex M;
  std::condition_variable Wake;
  std::map<std::string, Document> Open;
  std::map<std::string, Diagnosed> Results;
  std::map<std::string, Clock::time_point> Due; // documents waiting for a lint
  std::string Linting;                          // the document the worker lints now, if any
  uint64_t LintingGeneration = 0;
  std::atomic<bool> CancelLint{false}; // the running lint's text is outdated
  uint64_t Generations = 0;
  bool Stopping = false;
  llvm::thread Worker;
};

} // namespace mlperf::lint::lsp
