#include "MlperfCheck.h"

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
      Analyses(SharedAnalyses::forContext(Context)) {
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

void MlperfCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Profiles", ProfileFiles);
}

void MlperfCheck::onStartOfTranslationUnit() {
  Analyses->ByProfiles.clear();
  Analyses->Ctx = nullptr;
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

void MlperfCheck::explainHot(const HotContext &H, const SourceManager &SM) {
  if (H.Loop)
    diag(reportLoc(H.Loop->getBeginLoc(), SM), "this loop runs a model step on every iteration",
         DiagnosticIDs::Note);
  if (H.HotRoot)
    diag(reportLoc(H.HotRoot->getLocation(), SM), "%0 runs on every model step", DiagnosticIDs::Note)
        << H.HotRoot;
  for (const Expr *Call : H.CallChain) {
    const FunctionDecl *Callee = nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(Call))
      Callee = CE->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Callee && !(Method && Method->getParent()->isLambda()))
      diag(reportLoc(Call->getExprLoc(), SM), "%0 is called here, on every step", DiagnosticIDs::Note) << Callee;
    else
      diag(reportLoc(Call->getExprLoc(), SM), "called here, on every step", DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::mlperf
