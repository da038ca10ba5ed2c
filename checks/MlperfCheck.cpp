#include "MlperfCheck.h"
#include "analysis/Hoist.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace clang::tidy::mlperf {

llvm::Expected<std::shared_ptr<const ApiProfiles>> MlperfCheck::loadProfiles(StringRef ExtraFiles) {
  static std::mutex Mu;
  static std::map<std::string, std::shared_ptr<const ApiProfiles>> Cache;
  std::lock_guard<std::mutex> Lock(Mu);
  if (auto It = Cache.find(ExtraFiles.str()); It != Cache.end())
    return It->second;
  auto P = std::make_shared<ApiProfiles>();
  P->addBuiltins();
  std::string List = ExtraFiles.str();
  std::replace(List.begin(), List.end(), ';', ',');
  llvm::SmallVector<StringRef, 4> Files;
  StringRef(List).split(Files, ',', -1, false);
  for (StringRef F : Files)
    if (llvm::Error E = P->addFile(F.trim()))
      return std::move(E);
  Cache[ExtraFiles.str()] = P;
  return P;
}

/// The analyses of the translation unit the checks of one ClangTidyContext
/// are working on, one per profile set. clang-tidy creates the checks for each
/// translation unit and destroys them after it, so the checks of a context
/// hold the same instance, and a parallel run (one context per thread) gets
/// one per thread.
struct MlperfCheck::SharedAnalyses {
  const ASTContext *Ctx = nullptr;
  std::map<const ApiProfiles *, std::unique_ptr<ModelAnalysis>> ByProfiles;

  static std::shared_ptr<SharedAnalyses> forContext(const ClangTidyContext *Context) {
    static std::mutex Mu;
    static std::map<const ClangTidyContext *, std::weak_ptr<SharedAnalyses>> Live;
    std::lock_guard<std::mutex> Lock(Mu);
    for (auto It = Live.begin(); It != Live.end();)
      It = It->second.expired() ? Live.erase(It) : std::next(It);
    std::weak_ptr<SharedAnalyses> &Slot = Live[Context];
    std::shared_ptr<SharedAnalyses> S = Slot.lock();
    if (!S)
      Slot = S = std::make_shared<SharedAnalyses>();
    return S;
  }
};

MlperfCheck::MlperfCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), ProfileFiles(Options.getLocalOrGlobal("Profiles", "")),
      EmitCostFacts(Options.getLocalOrGlobal("CostFacts", false)), Analyses(SharedAnalyses::forContext(Context)),
      Scope(Context->getOptions().HeaderFilterRegex.value_or(""),
            Context->getOptions().ExcludeHeaderFilterRegex.value_or("")) {
  auto Loaded = loadProfiles(ProfileFiles);
  if (!Loaded) {
    configurationDiag("%0") << llvm::toString(Loaded.takeError());
    auto Builtins = std::make_shared<ApiProfiles>();
    Builtins->addBuiltins();
    Profiles = std::move(Builtins);
  } else {
    Profiles = *Loaded;
  }
}

void MlperfCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { Options.store(Opts, "Profiles", ProfileFiles); }

void MlperfCheck::onStartOfTranslationUnit() {
  Analyses->ByProfiles.clear();
  Analyses->Ctx = nullptr;
  Reaches.reset();
  resetHoists(); // a new context may reuse an old one's address
}

ModelAnalysis &MlperfCheck::analysis(ASTContext &Ctx) {
  if (Analyses->Ctx != &Ctx) {
    Analyses->ByProfiles.clear();
    Analyses->Ctx = &Ctx;
  }
  std::unique_ptr<ModelAnalysis> &A = Analyses->ByProfiles[Profiles.get()];
  if (!A)
    A = std::make_unique<ModelAnalysis>(Ctx, *Profiles);
  return *A;
}

std::optional<LibraryReach> MlperfCheck::libraryReach(const CallExpr *Call, Role R, const SourceManager &SM) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || Profiles->match(Call) || !isLibrary(Def->getLocation(), SM) || isLibrary(Call->getExprLoc(), SM))
    return std::nullopt;
  if (!Reaches)
    Reaches = std::make_unique<LibraryReaches>(*Profiles);
  return Reaches->find(Def, R);
}

void MlperfCheck::reportLibraryCall(const CallExpr *Call, const LibraryReach &Reach, StringRef What,
                                    const HotContext &H, const SourceManager &SM) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  diag(reportLoc(Call->getExprLoc(), SM), "%0 %1 on every call, and it is called on every step; call it every N "
                                          "steps or after the loop where its result allows")
      << Callee << What;
  const auto *Inner = dyn_cast<CallExpr>(Reach.Inner);
  const FunctionDecl *InnerCallee = Inner ? Inner->getDirectCallee() : nullptr;
  if (InnerCallee)
    diag(Reach.Inner->getExprLoc(), "%0 calls %1 here", DiagnosticIDs::Note) << Reach.Through.back() << InnerCallee;
  explainHot(H, SM);
}

void MlperfCheck::noteCost(SourceLocation Loc, CostFacts F, const HotContext *H, const Stmt *S, ModelAnalysis &A) {
  if (!EmitCostFacts)
    return;
  if (H)
    F.Steps = stepsOf(*H, S, A);
  diag(Loc, "%0", DiagnosticIDs::Note) << costFactsNote(F);
}

SourceLocation MlperfCheck::locationIn(const std::string &File, unsigned Line, unsigned Column,
                                       const SourceManager &SM) {
  // Notes may point into files the translation unit does not include; the
  // source manager is the match result's own, only declared const here.
  auto &Mutable = const_cast<SourceManager &>(SM);
  auto Ref = Mutable.getFileManager().getOptionalFileRef(File);
  if (!Ref)
    return {};
  FileID FID = Mutable.getOrCreateFileID(*Ref, SrcMgr::C_User);
  return Mutable.translateLineCol(FID, Line, Column);
}

void MlperfCheck::noteIfByName(const Expr *E, ModelAnalysis &A, const SourceManager &SM) {
  auto M = A.role(E);
  if ((M && M->ByName) || A.hasByNameRoles(A.owner(E)))
    diag(reportLoc(calleeLoc(E), SM), ByNameNote, DiagnosticIDs::Note);
}

SourceLocation MlperfCheck::calleeLoc(const Expr *E) {
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const auto *ME = dyn_cast<CXXDependentScopeMemberExpr>(CE->getCallee()->IgnoreParens()))
      return ME->getMemberLoc();
  return E->getExprLoc();
}

void MlperfCheck::addCallee(DiagnosticBuilder &D, const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee()) {
    D << FD;
    return;
  }
  std::string Name = "call";
  if (const auto *ME = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()->IgnoreParens()))
    Name = ME->getMember().getAsString();
  D << "'" + Name + "'";
}

void MlperfCheck::explainHot(const HotContext &H, const SourceManager &SM) {
  if (const HotCallSite *Site = H.External) {
    if (!Site->LoopFile.empty())
      diag(locationIn(Site->LoopFile, Site->LoopLine, Site->LoopColumn, SM),
           "this loop runs %select{a model step|the model}0 on every iteration", DiagnosticIDs::Note)
          << H.PerIteration;
    diag(locationIn(Site->File, Site->Line, Site->Column, SM), "called here from %0, on every %select{step|iteration}1",
         DiagnosticIDs::Note)
        << Site->Caller << H.PerIteration;
  }
  if (H.Loop)
    diag(reportLoc(H.Loop->getBeginLoc(), SM), "this loop runs %select{a model step|the model}0 on every iteration",
         DiagnosticIDs::Note)
        << H.Request;
  if (H.HotRoot)
    diag(reportLoc(H.HotRoot->getLocation(), SM), "%0 runs on every model step", DiagnosticIDs::Note) << H.HotRoot;
  if (H.RequestEntry)
    diag(reportLoc(H.RequestEntry->getLocation(), SM),
         "%0 runs the model and nothing in the project calls it: each call from outside is one request",
         DiagnosticIDs::Note)
        << H.RequestEntry;
  if (H.HandedAt) {
    const auto *CE = dyn_cast<CallExpr>(H.HandedAt);
    const FunctionDecl *Library = CE ? CE->getDirectCallee() : nullptr;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(H.HandedAt))
      Library = Construct->getConstructor();
    SourceLocation At = reportLoc(H.HandedAt->getExprLoc(), SM);
    // A template by its name, not its arguments (`post`, not `post<const char (&)[15], ...>`).
    const NamedDecl *Named = Library;
    if (Library && Library->getPrimaryTemplate())
      Named = Library->getPrimaryTemplate();
    if (Named)
      diag(At, "handed here to %0, outside the project, which calls it back: each call is one request",
           DiagnosticIDs::Note)
          << Named;
    else
      diag(At, "handed here to code outside the project, which calls it back: each call is one request",
           DiagnosticIDs::Note);
  }
  for (const Expr *Call : H.CallChain) {
    const FunctionDecl *Callee = nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(Call))
      Callee = CE->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    // A call through a std::function or another callable names what holds it.
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    const auto *Held =
        Op && Op->getOperator() == OO_Call ? dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()) : nullptr;
    const auto *HeldMember =
        Op && Op->getOperator() == OO_Call ? dyn_cast<MemberExpr>(Op->getArg(0)->IgnoreParenImpCasts()) : nullptr;
    if (Held || HeldMember)
      diag(reportLoc(Call->getExprLoc(), SM), "%0 is called here, on every %select{step|request}1", DiagnosticIDs::Note)
          << (Held ? Held->getDecl() : HeldMember->getMemberDecl()) << H.Request;
    else if (Callee && !(Method && Method->getParent()->isLambda()))
      diag(reportLoc(Call->getExprLoc(), SM), "%0 is called here, on every %select{step|request}1", DiagnosticIDs::Note)
          << Callee << H.Request;
    else
      diag(reportLoc(Call->getExprLoc(), SM), "called here, on every %select{step|request}0", DiagnosticIDs::Note)
          << H.Request;
  }
}

} // namespace clang::tidy::mlperf
