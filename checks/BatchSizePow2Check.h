#pragma once

#include "MlperfCheck.h"

#include "llvm/ADT/MapVector.h"

#include <vector>

namespace clang::tidy::mlperf {

/// A constant batch size that is not a power of two, feeding a
/// shape-specialized executable or an accelerator.
class BatchSizePow2Check : public MlperfCheck {
public:
  BatchSizePow2Check(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  struct BatchSize {
    SourceLocation Loc; // the constant
    int64_t Value;
    std::vector<SourceLocation> Uses; // loaders and datasets it sizes, when it is a variable
  };
  const int64_t MinBatchSize;
  llvm::MapVector<const void *, BatchSize> Sizes; // by the variable or the literal
  bool FeedsSpecialized = false;
  const SourceManager *SM = nullptr;
};

} // namespace clang::tidy::mlperf
