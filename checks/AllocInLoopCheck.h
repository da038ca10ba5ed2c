#pragma once

#include "MlperfCheck.h"
#include "analysis/Ownership.h"

namespace clang::tidy::mlperf {

/// Flags device (and pinned host) memory, streams and allocator contexts
/// allocated and released again on every model step.
class AllocInLoopCheck : public MlperfCheck {
public:
  using MlperfCheck::MlperfCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// The notes of one place the allocation churns: the functions that
  /// return it, the call on every step and the release; \p WithContext adds
  /// why that call runs every step (the first place's only).
  void explainChurn(const Churn &C, bool WithContext, ModelAnalysis &A, const SourceManager &SM);
};

} // namespace clang::tidy::mlperf
