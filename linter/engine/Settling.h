// The whole-project facts of the files parsed together, settled in memory
// before any check runs. Each file, once parsed, is summarized and waits with
// its AST; when every file in flight has been summarized, their summaries are
// resolved together, the files whose dependencies (what their findings read
// of the summaries) changed are summarized again from the ASTs they hold, no
// parse, and so on until nothing changes. Only then do the checks of those
// files run, each against the summaries it was settled with, so a chain of
// per-step calls through N files costs N passes in memory and one parse per
// file.
//
// The files in flight are bounded (each holds its AST): when every thread is
// held by a waiting file, those settle with what is known so far, and a file
// that later files change is parsed again by WholeProject.cpp's rounds.
#pragma once

#include "analysis/Summaries.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlperf::lint {

class FactSettling {
public:
  using Summaries = std::shared_ptr<const clang::tidy::mlperf::ProjectSummaries>;

  /// \p Files parsed by up to \p Jobs threads at a time and \p InFlight
  /// (at least Jobs) held in memory, against \p Base, the summaries known
  /// before; at most \p MaxPasses resolutions before files settle anyway.
  FactSettling(const std::vector<std::string> &Files, unsigned Jobs, unsigned InFlight, Summaries Base,
               unsigned MaxPasses);

  /// Threads the run needs: one for each file it may hold.
  unsigned threads() const { return InFlight; }
  /// Before file \p I starts (cache lookup, then parse): waits for a job slot.
  void start(size_t I);
  /// File \p I's run ended: replayed, parsed, crashed or cancelled; \p Kept
  /// is the summary of the parse its run kept, when it settled more than one.
  void done(size_t I, const clang::tidy::mlperf::FileSummary *Kept = nullptr);
  /// From the parse of \p File, on its thread, before its checks run: runs
  /// \p Summarize (under the summaries known now, as often as they change)
  /// and returns once the facts are settled, with the file's summary and the
  /// summaries its checks are to see.
  ///
  /// \p Tentative: the file may be parsed again within its run (a recovery
  /// from headers not found follows a parse with errors), and this parse's
  /// summary may not be the one kept. Its checks run now, but the files that
  /// settle with it wait, summarized again in memory as its later parses
  /// publish, until done() names the summary kept: no file settles on a
  /// summary that is then replaced (which cost a second round of parses).
  std::pair<clang::tidy::mlperf::FileSummary, Summaries>
  settle(const std::string &File, llvm::function_ref<clang::tidy::mlperf::FileSummary()> Summarize,
         bool Tentative = false);

  /// What file \p I's findings read of the summaries (their dependencies()
  /// under the summaries it settled with); nothing for a file that did not settle.
  std::optional<std::string> read(size_t I) const;
  /// Resolutions so far.
  unsigned passes() const;

private:
  enum class State { Pending, Running, Waiting, Again, Settled, Done };
  struct FileState {
    State St = State::Pending;
    bool Slot = false;
    std::optional<clang::tidy::mlperf::FileSummary> Published;
    std::string Read; // dependencies() under the summaries it was summarized (or settled) with
    bool HasRead = false;
    Summaries View;                              // once settled
    bool Tentative = false;                      // its latest parse may not be kept: the others wait for done()
    bool Fresh = false;                          // Published is not yet in Current
    unsigned Parses = 0;                         // parses settled, each summary numbered (FileSummary::Parse)
    std::map<unsigned, std::string> ReadByParse; // what each tentative parse's findings read
  };

  void acquireSlot(std::unique_lock<std::mutex> &Lock, FileState &F);
  void releaseSlot(FileState &F);
  /// With nothing running: resolves the waiting files' summaries together.
  void maybeResolve();

  mutable std::mutex Mu;
  std::condition_variable Cv;
  std::vector<FileState> States;
  std::map<std::string, size_t> Index;
  const unsigned InFlight, MaxPasses;
  unsigned FreeSlots, Passes = 0, WindowPasses = 0;
  size_t Pending, Active = 0, Waiting = 0;
  Summaries Current;
};

} // namespace mlperf::lint
