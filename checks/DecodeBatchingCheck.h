#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags decode habits of token-batch APIs (llama.cpp's through the
/// profiles): the prompt fed one token per decode call, and outputs
/// requested for every token of a batch when only the last is read.
class DecodeBatchingCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkPerTokenDecode(const CallExpr *Step, ModelAnalysis &A, const SourceManager &SM);
  void checkAllOutputs(const BinaryOperator *Assign, ModelAnalysis &A, const SourceManager &SM);
};

} // namespace clang::tidy::mlperf
