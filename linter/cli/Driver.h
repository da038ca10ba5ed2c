// The mlperf-lint command line.
#pragma once

namespace mlperf::lint {

/// Exit status: 0 no findings, 1 findings, 2 usage, configuration, input or
/// parse errors.
enum ExitCode { ExitClean = 0, ExitFindings = 1, ExitError = 2 };

int runMain(int Argc, const char **Argv);

} // namespace mlperf::lint
