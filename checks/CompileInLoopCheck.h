#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags modules, optimizers, data loaders and executables that are loaded,
/// compiled or constructed inside a loop that runs the model (the epoch loop
/// included); the fix-it hoists a construction that does not depend on the loop.
class CompileInLoopCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::mlperf
