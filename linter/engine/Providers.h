// How the engine gets a file's configuration: a factory of clang-tidy options
// providers, one per thread (project/Config.h builds it).
#pragma once

#include "clang-tidy/ClangTidyOptions.h"

#include <functional>
#include <memory>

namespace mlperf::lint {

using ProviderFactory = std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>()>;

} // namespace mlperf::lint
