#pragma once

#include "MlperfCheck.h"

namespace clang::tidy::mlperf {

/// Flags device -> host copies and waits (`item`, `cpu()`, `to(kCPU)`,
/// printing a tensor, ...) executed on every step of a loop that runs the model.
class MaterializeInLoopCheck : public MlperfCheck {
public:
  MaterializeInLoopCheck(StringRef Name, ClangTidyContext *Context);
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// In inference loops, results returned or stored are the program's output.
  const bool IgnoreInferenceOutputs;
};

} // namespace clang::tidy::mlperf
