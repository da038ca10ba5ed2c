#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags tensors created on the host and moved to the device in the same
/// expression on every step (`torch::zeros(...).to(device)`); the fix-it
/// creates them on the device through their options.
class CreateOnDeviceCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::mlperf
