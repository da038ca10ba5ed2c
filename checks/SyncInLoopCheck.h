#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags explicit device synchronizations executed on every model step.
class SyncInLoopCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::mlperf
