// Running one translation unit so that a crash in clang, including stack
// exhaustion on deeply nested code, ends that file's run and not the process.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlperf::lint {

/// Stack of the thread each translation unit is parsed on.
inline constexpr unsigned IsolatedStackSize = 256u << 20;

/// Runs \p Fn on a thread with a large stack under LLVM's crash recovery.
/// Returns what happened when it crashed ("signal 11: Segmentation fault"),
/// nothing when it returned normally.
std::optional<std::string> runIsolated(llvm::function_ref<void()> Fn);

} // namespace mlperf::lint
