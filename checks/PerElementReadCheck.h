#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags a tensor read element by element in a loop (`out[i].item<float>()`):
/// a device -> host copy and a wait per element; and elements copied to the
/// device one by one and then joined (`xs.push_back(x.to(device))`, then
/// `torch::stack(xs)`): a copy per element where one would do.
class PerElementReadCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void reportUpload(const CallExpr *Move, const ast_matchers::MatchFinder::MatchResult &Result);
};

} // namespace clang::tidy::mlperf
