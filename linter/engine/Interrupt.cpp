#include "engine/Interrupt.h"

#include "llvm/Support/Signals.h"

#include <csignal>
#include <mutex>

namespace mlperf::lint {

namespace {
constexpr int Signals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction Previous[3];
volatile std::sig_atomic_t Pending = 0;
std::mutex Mu;
unsigned Depth = 0; // runs in progress (the language server may overlap them)

void restore() {
  for (size_t I = 0; I < 3; ++I)
    sigaction(Signals[I], &Previous[I], nullptr);
}

void onSignal(int Sig) {
  if (Pending) { // the second one: end now, as the handler before ours would
    restore();
    ::raise(Sig);
    return;
  }
  Pending = Sig;
}
} // namespace

InterruptibleRun::InterruptibleRun() {
  std::lock_guard<std::mutex> Lock(Mu);
  if (Depth++)
    return;
  // LLVM's handlers first, so that none is installed over ours later (each
  // temporary file registers them when none are).
  llvm::sys::SetInterruptFunction(nullptr);
  Pending = 0;
  struct sigaction A = {};
  A.sa_handler = onSignal;
  A.sa_flags = SA_RESTART;
  sigemptyset(&A.sa_mask);
  for (size_t I = 0; I < 3; ++I)
    sigaction(Signals[I], &A, &Previous[I]);
}

InterruptibleRun::~InterruptibleRun() {
  std::lock_guard<std::mutex> Lock(Mu);
  if (--Depth)
    return;
  restore();
  if (int Sig = Pending)
    ::raise(Sig);
}

bool InterruptibleRun::interrupted() { return Pending != 0; }

} // namespace mlperf::lint
