#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags a tensor read element by element in a loop (`out[i].item<float>()`):
/// a device -> host copy and a wait per element.
class PerElementReadCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::mlperf
