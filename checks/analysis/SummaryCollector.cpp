#include "SummaryCollector.h"

#include "DataFlow.h"
#include "Facts.h"
#include "HostMemory.h"
#include "HostWaits.h"
#include "Invariance.h"
#include "ModelAnalysis.h"
#include "Ownership.h"
#include "Purpose.h"
#include "SourceUtils.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

namespace clang::tidy::mlperf {

namespace {
struct Place {
  std::string File;
  unsigned Line = 0, Column = 0;
};

Place placeOf(SourceLocation Loc, const SourceManager &SM) {
  Loc = SM.getExpansionLoc(Loc);
  Place P;
  if (auto Entry = SM.getFileEntryRefForID(SM.getFileID(Loc)))
    P.File = Entry->getName().str();
  P.Line = SM.getExpansionLineNumber(Loc);
  P.Column = SM.getExpansionColumnNumber(Loc);
  return P;
}

/// The call \p Call in \p Caller, hot in \p Hot: its place, and its loop's
/// in this file.
HotCallSite hotSite(const Expr *Call, const FunctionDecl *Caller, const HotContext &Hot, const SourceManager &SM) {
  Place C = placeOf(Call->getExprLoc(), SM);
  HotCallSite Site{C.File, C.Line, C.Column, "", 0, 0, Caller->getNameAsString(), Hot.Training};
  if (Hot.Loop) {
    Place L = placeOf(Hot.Loop->getBeginLoc(), SM);
    Site.LoopFile = L.File;
    Site.LoopLine = L.Line;
    Site.LoopColumn = L.Column;
  }
  return Site;
}
} // namespace

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (!D || index::generateUSRForDecl(D, Buf))
    return "";
  return std::string(Buf);
}

/// For a call of another file's function that returns what it allocates:
/// where this file releases that again on every step or request (see
/// ChurnCall), directly or after its own functions return it.
static void noteChurn(const CallExpr *Call, const std::string &CalleeUsr, ModelAnalysis &A, FileSummary &S) {
  std::optional<Acquisition> Acq = acquisitionAt(Call, A);
  if (!Acq || Acq->Via.empty() || Acq->Entry->K != Kind::Allocation)
    return;
  std::vector<Churn> Sites = churnSites(Call, *Acq, A);
  const SourceManager &SM = A.context().getSourceManager();
  for (const Churn &C : Sites) {
    if (C.External) {
      S.ChurnCalls[CalleeUsr].push_back(*C.External);
      continue;
    }
    ChurnCall Out;
    Out.Site = hotSite(C.Call, A.owner(C.Call), C.Hot, SM);
    Out.Request = C.Hot.Request;
    const auto *ReleaseCall = dyn_cast_or_null<CallExpr>(C.Release);
    const FunctionDecl *Releaser = ReleaseCall ? ReleaseCall->getDirectCallee() : nullptr;
    Out.Release = Releaser ? Releaser->getNameAsString() : "delete";
    if (C.Release) {
      Place R = placeOf(C.Release->getExprLoc(), SM);
      Out.ReleaseLine = R.Line;
      Out.ReleaseColumn = R.Column;
    }
    S.ChurnCalls[CalleeUsr].push_back(std::move(Out));
  }
}

/// For a call of another file's function, what it passes: whether each
/// tensor argument is on the host, each pointer argument null, and which
/// pointer arguments are pageable host memory (where it comes from and where
/// it is passed).
static void noteArguments(const Expr *Call, const FunctionDecl *Callee, const std::string &CalleeUsr, ModelAnalysis &A,
                          FileSummary &S) {
  const SourceManager &SM = A.context().getSourceManager();
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    const Expr *Arg = argumentFor(Call, I);
    if (carriesTensors(T, A.profiles())) {
      bool Host = Arg && onHost(stripConversions(Arg), A);
      auto [It, New] = S.HostArgs[CalleeUsr].try_emplace(I, Host);
      It->second = It->second && Host;
    }
    if (!mayBeEmpty(T))
      continue;
    bool Null = passesNothing(Arg, A.context());
    auto [It, New] = S.NullArgs[CalleeUsr].try_emplace(I, Null);
    It->second = It->second && Null;
    if (!T->isPointerType())
      continue;
    if (std::optional<PageableOrigin> O = Arg ? pageablePointer(Arg, A) : std::nullopt)
      S.PageableArgs[CalleeUsr].try_emplace(I, pageableOriginText(*O, SM) + ", passed at " +
                                                   fileLine(Call->getExprLoc(), SM));
  }
}

/// The USRs of the virtual methods \p MD overrides, directly or not.
static std::vector<std::string> overriddenMethods(const CXXMethodDecl *MD) {
  std::vector<std::string> Out;
  for (const CXXMethodDecl *Base : overriddenTransitively(MD))
    if (std::string Usr = usrOf(Base); !Usr.empty() && !llvm::is_contained(Out, Usr))
      Out.push_back(std::move(Usr));
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// A `main` that does nothing (`int main() {}`, `{ return 0; }`): a stub
/// that lets a library's source build as an executable. It does not make
/// its file a program of its own (ProjectSummaries::resolve), so it is
/// left out of the summary.
static bool stubMain(const FunctionDecl *FD) {
  const auto *Body = FD->isMain() ? dyn_cast_or_null<CompoundStmt>(FD->getBody()) : nullptr;
  if (!Body)
    return false;
  return llvm::all_of(Body->body(), [](const Stmt *S) {
    const auto *R = dyn_cast<ReturnStmt>(S);
    return isa<NullStmt>(S) ||
           (R && (!R->getRetValue() || isa<IntegerLiteral>(R->getRetValue()->IgnoreParenImpCasts())));
  });
}

FileSummary summarize(ModelAnalysis &A, llvm::StringRef MainFile) {
  FileSummary S;
  S.File = MainFile.str();
  S.UsesDevice = A.usesDeviceItself();
  A.forEachFunction([&](const FunctionDecl *FD) {
    forEachPublicFieldWritten(FD, [&](const FieldDecl *F) { S.WrittenFields.insert(usrOf(F)); });
    pointerFieldStores(FD, A, [&](const FieldDecl *F, const std::string &Origin) {
      std::string Usr = usrOf(F);
      if (Usr.empty())
        return;
      auto [It, New] = S.PointerFields.try_emplace(Usr, Origin);
      if (Origin.empty())
        It->second.clear();
    });
  });
  const SourceManager &SM = A.context().getSourceManager();
  A.forEachFunction([&](const FunctionDecl *FD) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && MD->getParent()->isLambda())
      return;
    std::string Usr = usrOf(FD);
    if (Usr.empty() || stubMain(FD))
      return;
    FunctionFacts &F = S.Functions[Usr];
    F.Name = FD->getQualifiedNameAsString();
    Place P = placeOf(FD->getLocation(), SM);
    F.File = P.File;
    F.Line = P.Line;
    F.StepsDirectly = A.stepsDirectly(FD);
    F.ReachesStep = A.reachesStep(FD);
    F.Trains = A.reachesTraining(FD);
    llvm::ArrayRef<unsigned> Released = releasedParameters(FD, A);
    F.ReleasedParams.assign(Released.begin(), Released.end());
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (readsThroughOnly(FD, I))
        F.ReadOnlyParams.push_back(I);
    F.ForwardForTraining = forwardKeptForTraining(FD, A) != nullptr;
    F.ReadsToHost = A.readsToHost(FD);
    if (const ProfileEntry *E = returnedAcquisition(FD, A))
      F.ReturnedAcquire = acquireEntryName(*E);
    F.ReturnsHost = returnsHost(FD, A);
    if (MD)
      F.Overrides = overriddenMethods(MD);
  });
  // The methods its classes declare that it does not define.
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Classes;
  A.forEachFunction([&](const FunctionDecl *FD) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD || MD->getParent()->isLambda() || !Classes.insert(MD->getParent()).second)
      return;
    for (const CXXMethodDecl *M : MD->getParent()->methods())
      if (!M->isImplicit() && !M->isDeleted() && !M->isDefaulted() && !M->getDefinition())
        if (std::string Usr = usrOf(M); !Usr.empty())
          S.Undefined.insert(std::move(Usr));
  });
  A.forEachDeviceArgument([&](const FunctionDecl *Callee, unsigned Index, DeviceKind K) {
    std::string Usr = usrOf(Callee);
    if (Usr.empty())
      return;
    auto [It, New] = S.DeviceArgs[Usr].try_emplace(Index, deviceKindName(K).str());
    if (!New && It->second != deviceKindName(K))
      It->second = deviceKindName(DeviceKind::UnknownDevice).str();
  });
  A.forEachExternalCall([&](const Expr *Call, const FunctionDecl *Caller, const FunctionDecl *Callee) {
    std::string CalleeUsr = usrOf(Callee);
    if (CalleeUsr.empty())
      return;
    S.Uses.insert(CalleeUsr);
    bool Off = underNoGradGuard(Call, A);
    auto [G, New] = S.GradOffCalls.try_emplace(CalleeUsr, Off);
    G->second = G->second && Off;
    const auto *MD = dyn_cast<CXXMethodDecl>(Caller);
    if (!(MD && MD->getParent()->isLambda()))
      if (auto It = S.Functions.find(usrOf(Caller)); It != S.Functions.end()) {
        It->second.Callees.push_back(CalleeUsr);
        if (!A.innermostLoop(Call))
          It->second.DirectCallees.push_back(CalleeUsr);
      }
    if (const auto *CE = dyn_cast<CallExpr>(Call))
      noteChurn(CE, CalleeUsr, A, S);
    noteArguments(Call, Callee, CalleeUsr, A, S);
    if (std::optional<HotContext> L = A.inModelLoopThroughCallers(Call)) {
      HotCallSite Site = hotSite(Call, Caller, *L, SM);
      if (!L->Loop && L->External) { // the loop of another file's caller
        Site.LoopFile = L->External->LoopFile;
        Site.LoopLine = L->External->LoopLine;
        Site.LoopColumn = L->External->LoopColumn;
      }
      if (const VarDecl *Into = L->Loop && L->CallChain.empty() ? resultVariable(Call, A) : nullptr)
        Site.ResultReloaded = loadedPerIteration(Into, A.innermostLoop(Call), A);
      S.LoopCalls[CalleeUsr].push_back(std::move(Site));
    }
    std::optional<HotContext> H = A.perStep(Call);
    if (!H)
      return;
    HotCallSite Site = hotSite(Call, Caller, *H, SM);
    if (!Callee->getReturnType()->isVoidType())
      Site.ResultUse = purposeName(purposeThroughCalls(Call, A, *H)).str();
    if (const auto *CE = dyn_cast<CallExpr>(Call)) {
      Site.WaitsAfter = waitNeeded(CE, A, /*Elsewhere=*/false);
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        if (argumentSameEveryStep(CE, I, *H, A))
          Site.InvariantArgs.push_back(I);
        if (const CallExpr *Up = copiedBackAfter(CE, I, A)) {
          Site.CopiedBackArgs.push_back(I);
          if (Site.CopiedBackAt.empty())
            Site.CopiedBackAt = fileLine(Up->getBeginLoc(), SM);
        }
      }
    }
    S.HotCalls[CalleeUsr].push_back(std::move(Site));
  });
  A.forEachPassedCallable([&](const Expr *, const FunctionDecl *Callee, unsigned Index, const FunctionDecl *Callable) {
    std::string CalleeUsr = usrOf(Callee);
    if (CalleeUsr.empty())
      return;
    PassedCallable P{Index, A.stepsDirectly(Callable), A.reachesStep(Callable), A.reachesTraining(Callable)};
    std::vector<PassedCallable> &Out = S.Passed[CalleeUsr];
    auto Same = llvm::find_if(Out, [&](const PassedCallable &Q) { return Q.Index == Index; });
    if (Same == Out.end()) {
      Out.push_back(P);
      return;
    }
    Same->StepsDirectly |= P.StepsDirectly;
    Same->ReachesStep |= P.ReachesStep;
    Same->Trains |= P.Trains;
  });
  A.forEachParameterCall([&](const Expr *Call, const FunctionDecl *Owner, unsigned Index) {
    std::string Usr = usrOf(Owner);
    std::optional<HotContext> H = A.perStep(Call);
    if (Usr.empty() || !H)
      return;
    S.ParamCalls[Usr + "#" + std::to_string(Index)].push_back(hotSite(Call, Owner, *H, SM));
  });
  return S;
}

} // namespace clang::tidy::mlperf
