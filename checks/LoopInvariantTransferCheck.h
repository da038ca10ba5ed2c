#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags host -> device copies, on every model step, of values the loop never
/// changes; the fix-it hoists the copy in front of the loop.
class LoopInvariantTransferCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void reportPerCallConstant(const CallExpr *Call, const Expr *Value, const HotContext &Hot,
                             const ast_matchers::MatchFinder::MatchResult &Result);
  void reportConstantData(const CallExpr *Call, const CallExpr *Made, const HotContext &Hot,
                          const ast_matchers::MatchFinder::MatchResult &Result);
  bool reportRepeatedCopy(const CallExpr *Call, const Expr *Value, const VarDecl *Var, const HotContext &Hot,
                          const ast_matchers::MatchFinder::MatchResult &Result);
  bool reportUnchangedObject(const CallExpr *Call, const Expr *Value, const HotContext &Hot,
                             const ast_matchers::MatchFinder::MatchResult &Result);
  void reportInvariantParameter(const CallExpr *Call, const ParmVarDecl *Param, const HotContext &Hot,
                                const ast_matchers::MatchFinder::MatchResult &Result);
};

} // namespace clang::tidy::mlperf
