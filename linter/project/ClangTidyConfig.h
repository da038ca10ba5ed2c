// A project's `.clang-tidy` as the driver reads it: only what concerns the
// mlperf checks, so one file configures the plugin under clang-tidy and the
// driver alike. In a directory that has both, `.mlperf-lint` wins.
#pragma once

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlperf::lint {

inline constexpr const char *ClangTidyConfigFileName = ".clang-tidy";

/// The `mlperf-*` part of a `.clang-tidy`: the `Checks` and
/// `WarningsAsErrors` globs naming mlperf checks (with a leading `-*`, which
/// then turns off the mlperf checks it does not list), `CheckOptions` keyed
/// `mlperf-*`, and the header settings (`HeaderFilterRegex`,
/// `ExcludeHeaderFilterRegex`, `SystemHeaders`). Globs that name no mlperf
/// check leave the driver's defaults alone.
llvm::ErrorOr<clang::tidy::ClangTidyOptions> parseMlperfPartOfClangTidy(llvm::MemoryBufferRef Config);

} // namespace mlperf::lint
