#include "SummaryCollector.h"

#include "DataFlow.h"
#include "Invariance.h"
#include "ModelAnalysis.h"
#include "Ownership.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"

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
} // namespace

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (!D || index::generateUSRForDecl(D, Buf))
    return "";
  return std::string(Buf);
}

FileSummary summarize(ModelAnalysis &A, llvm::StringRef MainFile) {
  FileSummary S;
  S.File = MainFile.str();
  S.UsesDevice = A.usesDeviceItself();
  const SourceManager &SM = A.context().getSourceManager();
  A.forEachFunction([&](const FunctionDecl *FD) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && MD->getParent()->isLambda())
      return;
    std::string Usr = usrOf(FD);
    if (Usr.empty())
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
    if (const ProfileEntry *E = returnedAcquisition(FD, A))
      F.ReturnedAcquire = acquireEntryName(*E);
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
    std::optional<HotContext> H = A.perStep(Call);
    if (!H)
      return;
    Place C = placeOf(Call->getExprLoc(), SM);
    HotCallSite Site{C.File, C.Line, C.Column, "", 0, 0, Caller->getNameAsString(), H->Training};
    if (H->Loop) {
      Place L = placeOf(H->Loop->getBeginLoc(), SM);
      Site.LoopFile = L.File;
      Site.LoopLine = L.Line;
      Site.LoopColumn = L.Column;
      if (const auto *CE = dyn_cast<CallExpr>(Call); CE && H->CallChain.empty())
        for (unsigned I = 0; I < CE->getNumArgs(); ++I)
          if (argumentInvariantIn(CE, I, H->Loop, A))
            Site.InvariantArgs.push_back(I);
    }
    S.HotCalls[CalleeUsr].push_back(std::move(Site));
  });
  return S;
}

} // namespace clang::tidy::mlperf
