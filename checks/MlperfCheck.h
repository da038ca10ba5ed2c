// Base of every mlperf check: the API profiles (built-in plus the `Profiles`
// option), the per-translation-unit model analysis (one per translation unit
// and profile set, shared by the checks of that translation unit), and the
// notes that say why a statement runs every step.
#pragma once

#include "analysis/ApiProfile.h"
#include "analysis/ModelAnalysis.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <memory>

namespace clang::tidy::mlperf {

class MlperfCheck : public ClangTidyCheck {
public:
  MlperfCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override { return LangOpts.CPlusPlus; }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;

  /// Loads the built-in profiles plus the comma- or semicolon-separated files
  /// in \p ExtraFiles; shared between checks with the same option value.
  static llvm::Expected<std::shared_ptr<const ApiProfiles>> loadProfiles(StringRef ExtraFiles);

  ModelAnalysis &analysis(ASTContext &Ctx);
  const ApiProfiles &profiles() const { return *Profiles; }

protected:
  /// Adds the notes that explain a hot context (the loop, the call chain).
  void explainHot(const HotContext &H, const SourceManager &SM);
  /// Location to report a node at: the macro's use for code inside macros.
  static SourceLocation reportLoc(SourceLocation Loc, const SourceManager &SM) { return SM.getExpansionLoc(Loc); }

  const std::string ProfileFiles;

private:
  struct SharedAnalyses;

  std::shared_ptr<const ApiProfiles> Profiles;
  std::shared_ptr<SharedAnalyses> Analyses;
};

namespace matchers {
using namespace clang::ast_matchers;

/// The expression (a call or construction) has role \p R in the check's profiles.
AST_MATCHER_P2(Expr, hasRole, const MlperfCheck *, Check, Role, R) {
  const MlperfCheck *C = Check;
  auto M = C->profiles().match(&Node);
  return M && M->R == R;
}

/// The statement runs once per model step.
AST_MATCHER_P(Stmt, runsEveryStep, MlperfCheck *, Check) {
  return Check->analysis(Finder->getASTContext()).perStep(&Node).has_value();
}

/// The statement is inside a loop that runs the model (at any depth).
AST_MATCHER_P(Stmt, isInModelLoop, MlperfCheck *, Check) {
  return Check->analysis(Finder->getASTContext()).inModelLoop(&Node).has_value();
}

/// The translation unit can put tensors on an accelerator, or the matched role
/// comes from an API whose data always lives on a device.
AST_MATCHER_P(Expr, onDevice, MlperfCheck *, Check) {
  auto M = Check->profiles().match(&Node);
  return (M && M->deviceAlways()) || Check->analysis(Finder->getASTContext()).deviceAware();
}
} // namespace matchers

} // namespace clang::tidy::mlperf
