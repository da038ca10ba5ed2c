#pragma once

#include "MlperfCheck.h"

#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::mlperf {

/// Device memory kept past the iteration or handle resources never released.
class MissingFinalizeCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    MlperfCheck::onStartOfTranslationUnit();
    Reported.clear();
  }

private:
  void checkAcquire(const CallExpr *Call, const ast_matchers::MatchFinder::MatchResult &Result);
  void reportOverwrite(const CallExpr *Call, const struct Acquisition &Acq, const struct HandleRef &Handle,
                       const ValueDecl *Kept, const HotContext *Hot, bool Never,
                       const ast_matchers::MatchFinder::MatchResult &Result, bool Iteration = false);
  void checkStore(const CXXMemberCallExpr *Store, const VarDecl *Container,
                  const ast_matchers::MatchFinder::MatchResult &Result);
  llvm::DenseSet<const void *> Reported;
};

} // namespace clang::tidy::mlperf
