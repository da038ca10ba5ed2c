// `mlperf-lint validate`: runs each check's fixture pair (anti-pattern and fix)
// on the runtime and on libtorch, checks that both compute the same thing,
// measures what the anti-pattern costs, verifies fix-its by execution, and
// stores the figures the linter then shows with every finding.
#pragma once

namespace mlperf::validate {

/// Exit status: 0 every fixture ran and agreed, 1 a fixture failed to build,
/// crashed, or computed a different result, 2 usage errors (found before any
/// fixture runs: bad options, an output path that cannot be written).
int runValidate(int Argc, const char **Argv);

} // namespace mlperf::validate
