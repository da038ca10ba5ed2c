// Parses mlperf-lint's command line (LLVM's command-line library) into a
// LintRequest. Compiler arguments follow `--`, as for clang-tidy.
#pragma once

#include "project/Request.h"

#include "llvm/Support/Error.h"

namespace mlperf::lint {

/// The request, or an error whose message is one line for the user.
llvm::Expected<LintRequest> parseCommandLine(int Argc, const char **Argv);

} // namespace mlperf::lint
