// The `mlperf` clang-tidy module: the list of checks and their registration.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::mlperf {

struct CheckInfo {
  llvm::StringRef Name;    // e.g. "mlperf-materialize-in-loop"
  llvm::StringRef Summary; // one line
  bool EnabledByDefault;
};

/// Every check of the module, sorted by name.
llvm::ArrayRef<CheckInfo> allChecks();
/// The `Checks` glob that enables the default set.
llvm::StringRef defaultChecksGlob();
/// Adds the module to clang-tidy's registry; explicit, idempotent.
void registerMlperfModule();

} // namespace clang::tidy::mlperf
