// Ctrl-C (or SIGTERM, SIGHUP) during a run: no file is started after it, the
// files already finished keep their cache entries and summaries, and the
// signal is raised again, with LLVM's handler (which removes the temporary
// files it knows) and then the default action, once the run has stored them.
// A second signal ends the run at once.
#pragma once

namespace mlperf::lint {

class InterruptibleRun {
public:
  InterruptibleRun();
  ~InterruptibleRun();
  InterruptibleRun(const InterruptibleRun &) = delete;
  InterruptibleRun &operator=(const InterruptibleRun &) = delete;

  /// Whether a signal arrived while a run was in progress.
  static bool interrupted();
};

} // namespace mlperf::lint
