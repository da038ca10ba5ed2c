// Configuration: defaults, `.mlperf-lint` files found upward from each
// source, `--config-file`, and the command line, through clang-tidy's
// options providers.
#pragma once

#include "engine/Providers.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

inline constexpr const char *ConfigFileName = ".mlperf-lint";

struct ConfigRequest {
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilter, ConfigFile, ConfigText;
  std::optional<std::string> ExcludeHeaderFilter;
  std::optional<bool> SystemHeaders;
  std::vector<std::string> Profiles;
  std::string DefaultHeaderFilter; // used unless a configuration or --header-filter sets one
  bool AllowNoChecks = false;      // --allow-no-checks: globs that enable no check are not an error
};

/// Validates every configuration the run will read (the config file, the
/// `.mlperf-lint` files above \p Files, check names, regexes and API
/// profiles) and returns a factory of providers, one per thread. Unknown
/// check option keys are added to \p Warnings, once each.
llvm::Expected<ProviderFactory> makeOptionsProviders(const ConfigRequest &R, const std::vector<std::string> &Files,
                                                     std::vector<std::string> *Warnings = nullptr);

/// Removes from \p Files those under a `.mlperf-lint` that cannot be used and
/// returns one line per such configuration file ("<file>: line N: ...").
std::vector<std::string> dropFilesWithBadConfig(std::vector<std::string> &Files);

/// The `.mlperf-lint` files that apply to \p Files, nearest first per file.
std::vector<std::string> directoryConfigs(const std::vector<std::string> &Files);

/// Errors for check globs that name no known check ("unknown check 'x'").
llvm::Error verifyCheckGlobs(llvm::StringRef Globs, llvm::StringRef Source);

} // namespace mlperf::lint
