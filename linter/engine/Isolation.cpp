#include "engine/Isolation.h"

#include "clang/Basic/Stack.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/thread.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace mlperf::lint {

namespace {
thread_local std::string FatalReason;

/// LLVM's crash-recovery handlers run on the faulting thread's stack, which
/// a stack overflow has used up: run them on an alternate stack instead.
void enableRecoveryOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::CrashRecoveryContext::Enable();
    // A fatal error inside clang (report_fatal_error) ends that translation
    // unit, as a crash does, instead of exiting the process.
    llvm::install_fatal_error_handler([](void *, const char *Reason, bool) {
      if (llvm::CrashRecoveryContext *C = llvm::CrashRecoveryContext::GetCurrent()) {
        FatalReason = Reason;
        C->HandleExit(1);
      }
    });
    for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
      struct sigaction A;
      if (sigaction(Sig, nullptr, &A) == 0) {
        A.sa_flags |= SA_ONSTACK;
        sigaction(Sig, &A, nullptr);
      }
    }
  });
}

class AltStack {
public:
  AltStack() : Memory(std::malloc(Size)) {
    stack_t S{};
    S.ss_sp = Memory;
    S.ss_size = Size;
    if (Memory)
      sigaltstack(&S, &Old);
  }
  ~AltStack() {
    if (!Memory)
      return;
    sigaltstack(&Old, nullptr);
    std::free(Memory);
  }

private:
  static constexpr size_t Size = 1 << 18;
  void *Memory;
  stack_t Old{};
};
} // namespace

std::optional<std::string> runIsolated(llvm::function_ref<void()> Fn) {
  enableRecoveryOnce();
  bool Ok = true;
  int RetCode = 0;
  std::string Reason;
  llvm::thread Worker(std::optional<unsigned>(IsolatedStackSize), [&] {
    AltStack Alt;
    clang::noteBottomOfStack();
    llvm::CrashRecoveryContext CRC;
    FatalReason.clear();
    Ok = CRC.RunSafely(Fn);
    RetCode = CRC.RetCode;
    Reason = FatalReason;
  });
  Worker.join();
  if (Ok)
    return std::nullopt;
  // LLVM reports a signal as 128 + its number.
  if (RetCode > 128 && RetCode < 128 + NSIG)
    return "signal " + std::to_string(RetCode - 128) + ": " + strsignal(RetCode - 128);
  return Reason.empty() ? "exit code " + std::to_string(RetCode) : "fatal error: " + Reason;
}

} // namespace mlperf::lint
