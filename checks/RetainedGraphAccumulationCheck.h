#pragma once

#include "MlperfCheck.h"

#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::mlperf {

/// Tensors with autograd history (a loss, a model output) accumulated across
/// iterations into a variable or container that outlives them.
class RetainedGraphAccumulationCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    MlperfCheck::onStartOfTranslationUnit();
    Reported.clear();
  }

private:
  llvm::DenseSet<const void *> Reported;
};

} // namespace clang::tidy::mlperf
