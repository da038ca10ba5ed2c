#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags asynchronous host <-> device copies of pageable host memory, which
/// the driver stages and completes before the call returns.
class PageableAsyncCopyCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::mlperf
