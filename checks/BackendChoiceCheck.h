#pragma once

#include "MlperfCheck.h"

#include <vector>

namespace clang::tidy::mlperf {

/// A large model (constant layer sizes) trained on the runtime's `reference`
/// backend or on a hard-coded CPU device with no check for an accelerator.
class BackendChoiceCheck : public MlperfCheck {
public:
  BackendChoiceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  struct Choice {
    SourceLocation Loc;
    bool Runtime;  // the runtime's reference backend, else a libtorch CPU device
  };
  const int64_t MinParameters;
  int64_t Parameters = 0;
  SourceLocation LargestLayer;
  int64_t LargestLayerSize = 0;
  bool Training = false, ChecksAccelerator = false;
  std::vector<Choice> Choices;
  const SourceManager *SM = nullptr;
};

} // namespace clang::tidy::mlperf
