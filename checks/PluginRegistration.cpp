// Entry point of the plugin for `clang-tidy-19 --load`: clang-tidy offers no
// hook to call, so registration runs when the library is loaded.
#include "MlperfModule.h"

namespace {
struct RegisterOnLoad {
  RegisterOnLoad() { clang::tidy::mlperf::registerMlperfModule(); }
} Register;
} // namespace
