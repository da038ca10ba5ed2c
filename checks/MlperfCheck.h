// Base of every mlperf check: the API profiles (built-in plus the `Profiles`
// option), the per-translation-unit model analysis (one per translation unit
// and profile set, shared by the checks of that translation unit), and the
// notes that say why a statement runs every step.
#pragma once

#include "analysis/ApiProfile.h"
#include "analysis/Cost.h"
#include "analysis/Facts.h"
#include "analysis/LibraryCalls.h"
#include "analysis/ModelAnalysis.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <memory>

namespace clang::tidy::mlperf {

class MlperfCheck : public ClangTidyCheck {
public:
  MlperfCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;

  /// Loads the built-in profiles plus the comma- or semicolon-separated files
  /// in \p ExtraFiles; shared between checks with the same option value.
  static llvm::Expected<std::shared_ptr<const ApiProfiles>> loadProfiles(StringRef ExtraFiles);

  ModelAnalysis &analysis(ASTContext &Ctx);
  const ApiProfiles &profiles() const { return *Profiles; }
  /// Code the run does not report in (system headers, headers outside the header filter).
  bool isLibrary(SourceLocation Loc, const SourceManager &SM) const { return Scope.isLibrary(Loc, SM); }
  /// For a project's call of a library function: the call with role \p R that it runs.
  std::optional<LibraryReach> libraryReach(const CallExpr *Call, Role R, const SourceManager &SM);

protected:
  /// Adds the notes that explain a hot context (the loop, the call chain).
  void explainHot(const HotContext &H, const SourceManager &SM);
  /// A note saying the finding rests on a match by member name (see
  /// ByNameNote), when it does.
  void noteIfByName(const Expr *E, ModelAnalysis &A, const SourceManager &SM);
  /// The callee of \p Call for a diagnostic: the function, or in an
  /// uninstantiated template the member's name.
  static void addCallee(DiagnosticBuilder &D, const CallExpr *Call);
  /// Where a finding about \p E goes: the member's name for a dependent call.
  static SourceLocation calleeLoc(const Expr *E);
  /// A place in another file of the project (from its summary), for a note;
  /// invalid when the file cannot be read.
  static SourceLocation locationIn(const std::string &File, unsigned Line, unsigned Column, const SourceManager &SM);
  /// Location to report a node at: the macro's use for code inside macros.
  static SourceLocation reportLoc(SourceLocation Loc, const SourceManager &SM) { return SM.getExpansionLoc(Loc); }
  /// Reports a library call that does \p What on every call, at the project's call site.
  void reportLibraryCall(const CallExpr *Call, const LibraryReach &Reach, StringRef What, const HotContext &H,
                         const SourceManager &SM);
  /// Hands the finding just reported the work it repeats per step of \p H
  /// (at \p S), for the cost estimate: a note the findings pipeline replaces
  /// (analysis/Cost.h), written only when the `CostFacts` option is on.
  void noteCost(SourceLocation Loc, CostFacts F, const HotContext *H, const Stmt *S, ModelAnalysis &A);

  const std::string ProfileFiles;
  const bool EmitCostFacts;

private:
  struct SharedAnalyses;

  std::shared_ptr<const ApiProfiles> Profiles;
  std::shared_ptr<SharedAnalyses> Analyses;
  CodeScope Scope;
  std::unique_ptr<LibraryReaches> Reaches;
};

/// The note of a finding that rests on a member's name in a template never
/// instantiated here; JSON and SARIF mark such findings as lower confidence.
inline constexpr llvm::StringLiteral ByNameNote =
    "matched by the member's name in a template this file never instantiates (lower confidence)";

namespace matchers {
using namespace clang::ast_matchers;

/// The expression (a call or construction) has role \p R in the check's profiles.
AST_MATCHER_P2(Expr, hasRole, MlperfCheck *, Check, Role, R) {
  auto M = Check->profiles().match(&Node);
  if (M && M->ByName) // in a template: only where the analysis keeps the match
    M = Check->analysis(Finder->getASTContext()).role(&Node);
  return M && M->R == R;
}

/// The call or construction matches an entry of fact \p R in the check's profiles.
AST_MATCHER_P2(Expr, hasFact, const MlperfCheck *, Check, Role, R) {
  return Check->profiles().find(&Node, R) != nullptr;
}

/// The variable's type (or a base of it) is named by an entry of fact \p R.
AST_MATCHER_P2(VarDecl, hasFactType, const MlperfCheck *, Check, Role, R) {
  return Check->profiles().findType(Node.getType(), R) != nullptr;
}

/// A project's call of a library function that runs a call with role \p R.
AST_MATCHER_P2(CallExpr, callsLibraryWith, MlperfCheck *, Check, Role, R) {
  return Check->libraryReach(&Node, R, Finder->getASTContext().getSourceManager()).has_value();
}

/// The statement runs once per model step.
AST_MATCHER_P(Stmt, runsEveryStep, MlperfCheck *, Check) {
  return Check->analysis(Finder->getASTContext()).perStep(&Node).has_value();
}

/// The statement is inside a loop that runs the model (at any depth).
AST_MATCHER_P(Stmt, isInModelLoop, MlperfCheck *, Check) {
  return Check->analysis(Finder->getASTContext()).inModelLoop(&Node).has_value();
}

/// A move to a device of a tensor that a host factory created in this
/// function (through conversions and local variables); binds the factory to
/// \p FactoryId. A move that follows another tensor's device (`t.to(other)`)
/// counts only when that tensor is not on the host.
AST_MATCHER_P2(CXXMemberCallExpr, movesHostCreation, MlperfCheck *, Check, std::string, FactoryId) {
  ModelAnalysis &A = Check->analysis(Finder->getASTContext());
  auto M = A.role(&Node);
  if (!M || M->R != Role::ToDevice)
    return false;
  if (const Expr *Other = followedByMove(&Node, *M, A); Other && onHost(Other, A))
    return false;
  std::optional<HotContext> Hot = A.perStep(&Node);
  const CallExpr *Factory = Hot ? createdOnHost(Node.getImplicitObjectArgument(), A, Hot->Loop) : nullptr;
  if (!Factory)
    return false;
  Builder->setBinding(FactoryId, DynTypedNode::create(*Factory));
  return true;
}

/// The translation unit can put tensors on an accelerator, or the matched role
/// comes from an API whose data always lives on a device.
AST_MATCHER_P(Expr, onDevice, MlperfCheck *, Check) {
  auto M = Check->profiles().match(&Node);
  return (M && M->deviceAlways()) || Check->analysis(Finder->getASTContext()).deviceAware();
}
} // namespace matchers

} // namespace clang::tidy::mlperf
