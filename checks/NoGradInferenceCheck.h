#pragma once

#include "MlperfCheck.h"

#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::mlperf {

/// A libtorch model run for evaluation or inference with autograd still on.
class NoGradInferenceCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    MlperfCheck::onStartOfTranslationUnit();
    Reported.clear();
  }

private:
  /// A function of the program whose forward a training step shares, and where it runs the model.
  struct SharedForward {
    std::string Callee, Where;
  };
  void checkSharedForward(const CallExpr *Call, ModelAnalysis &A, ASTContext &Ctx);
  void report(const CallExpr *At, const FunctionDecl *FD, const Stmt *Loop, const ProfileEntry *Guard,
              const SharedForward *Shared, ASTContext &Ctx);
  llvm::DenseSet<const void *> Reported;
};

} // namespace clang::tidy::mlperf
