#pragma once

#include "MlperfCheck.h"

#include <vector>

namespace clang::tidy::mlperf {

/// A large model (constant layer sizes) trained on a slow backend chosen by
/// name or on a hard-coded CPU device with no check for an accelerator.
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
    const ProfileEntry *Entry; // the backend-choice fact: what the choice is, what to do instead
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
