#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags device (and pinned host) memory, streams and allocator contexts
/// allocated and released again on every model step.
class AllocInLoopCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::mlperf
