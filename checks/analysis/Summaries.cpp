#include "Summaries.h"

#include "DataFlow.h"
#include "Invariance.h"
#include "ModelAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"

#include <nlohmann/json.hpp>

#include <mutex>

namespace clang::tidy::mlperf {

using nlohmann::json;

namespace {
std::mutex Mu;
constexpr int SummaryVersion = 5;  // 2: "uses"; 3: "grad_off_calls"; 4: "uses_device"; 5: "invariant_args"
std::shared_ptr<const ProjectSummaries> Current;

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

std::shared_ptr<const ProjectSummaries> projectSummaries() {
  std::lock_guard<std::mutex> Lock(Mu);
  return Current;
}

void setProjectSummaries(std::shared_ptr<const ProjectSummaries> S) {
  std::lock_guard<std::mutex> Lock(Mu);
  Current = std::move(S);
}

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (!D || index::generateUSRForDecl(D, Buf))
    return "";
  return std::string(Buf);
}

void ProjectSummaries::add(FileSummary S) { Files[S.File] = std::move(S); }

void ProjectSummaries::resolve() {
  Resolved.clear();
  Ambiguous.clear();
  for (const auto &[File, S] : Files)
    for (const auto &[Usr, F] : S.Functions) {
      auto [It, New] = Resolved.try_emplace(Usr, F);
      // A header's inline function is defined in every file that includes
      // it; two different definitions (two programs' `train`) say nothing.
      if (!New && (It->second.File != F.File || It->second.Line != F.Line))
        Ambiguous.insert(Usr);
    }
  for (const std::string &Usr : Ambiguous)
    Resolved.erase(Usr);
  // Facts flow from callees to callers until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Usr, F] : Resolved)
      for (const std::string &Callee : F.Callees) {
        auto It = Resolved.find(Callee);
        if (It == Resolved.end() || &It->second == &F)
          continue;
        const FunctionFacts &C = It->second;
        bool Direct = llvm::is_contained(F.DirectCallees, Callee);
        bool StepsDirectly = F.StepsDirectly || (Direct && C.StepsDirectly);
        bool Steps = F.ReachesStep || C.ReachesStep, Trains = F.Trains || C.Trains;
        if (StepsDirectly != F.StepsDirectly || Steps != F.ReachesStep || Trains != F.Trains) {
          F.StepsDirectly = StepsDirectly;
          F.ReachesStep = Steps;
          F.Trains = Trains;
          Changed = true;
        }
      }
  }
}

const FunctionFacts *ProjectSummaries::function(llvm::StringRef Usr) const {
  auto It = Resolved.find(Usr.str());
  return It == Resolved.end() ? nullptr : &It->second;
}

const HotCallSite *ProjectSummaries::hotCaller(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  if (Ambiguous.count(Usr.str()))
    return nullptr;
  for (const auto &[File, S] : Files) {
    if (File == NotFrom)
      continue;
    auto It = S.HotCalls.find(Usr.str());
    if (It != S.HotCalls.end() && !It->second.empty())
      return &It->second.front();
  }
  return nullptr;
}

std::vector<unsigned> ProjectSummaries::sameValueArgs(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  std::optional<std::vector<unsigned>> Common;
  if (Ambiguous.count(Usr.str()))
    return {};
  for (const auto &[File, S] : Files) {
    auto It = S.HotCalls.find(Usr.str());
    if (File == NotFrom || It == S.HotCalls.end())
      continue;
    for (const HotCallSite &H : It->second) {
      if (!Common)
        Common = H.InvariantArgs;
      llvm::erase_if(*Common, [&](unsigned I) { return !llvm::is_contained(H.InvariantArgs, I); });
    }
  }
  return Common.value_or(std::vector<unsigned>());
}

bool ProjectSummaries::passesSameValue(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const {
  return llvm::is_contained(sameValueArgs(Usr, NotFrom), Index);
}

bool ProjectSummaries::calledWithGradOff(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  bool Called = false;
  for (const auto &[File, S] : Files) {
    if (File == NotFrom)
      continue;
    if (auto It = S.GradOffCalls.find(Usr.str()); It != S.GradOffCalls.end()) {
      if (!It->second)
        return false;
      Called = true;
    }
  }
  return Called;
}

bool ProjectSummaries::anyUsesDevice(llvm::StringRef NotFrom) const {
  for (const auto &[File, S] : Files)
    if (File != NotFrom && S.UsesDevice)
      return true;
  return false;
}

std::string ProjectSummaries::dependencies(const FileSummary &S) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const std::string &Usr : S.Uses)
    if (const FunctionFacts *F = function(Usr))
      OS << "calls\x1f" << Usr << '\x1f' << F->Name << '\x1f' << F->File << ':' << F->Line << '\x1f'
         << F->StepsDirectly << F->ReachesStep << F->Trains << '\n';
  for (const auto &[Usr, Fn] : S.Functions)
    if (const HotCallSite *H = hotCaller(Usr, S.File))
      OS << "called\x1f" << Usr << '\x1f' << H->File << ':' << H->Line << ':' << H->Column << '\x1f' << H->LoopFile
         << ':' << H->LoopLine << ':' << H->LoopColumn << '\x1f' << H->Caller << '\x1f' << H->Training << '\n';
  // Which arguments every per-step call from elsewhere passes unchanged.
  for (const auto &[Usr, Fn] : S.Functions)
    for (unsigned I : sameValueArgs(Usr, S.File))
      OS << "same-arg\x1f" << Usr << '\x1f' << I << '\n';
  for (const auto &[Usr, Fn] : S.Functions)
    if (calledWithGradOff(Usr, S.File))
      OS << "grad-off\x1f" << Usr << '\n';
  if (!S.UsesDevice && anyUsesDevice(S.File))
    OS << "device\n";
  return Out;
}

std::string ProjectSummaries::toJson() const {
  json Out = {{"version", SummaryVersion}, {"files", json::object()}};
  for (const auto &[File, S] : Files) {
    json F = {{"mtime", S.MTime}, {"size", S.Size}, {"functions", json::object()}, {"hot_calls", json::object()},
              {"uses", S.Uses}, {"grad_off_calls", S.GradOffCalls}, {"uses_device", S.UsesDevice}};
    for (const auto &[Usr, Fn] : S.Functions)
      F["functions"][Usr] = {{"name", Fn.Name},          {"file", Fn.File},   {"line", Fn.Line},
                             {"steps_directly", Fn.StepsDirectly}, {"reaches_step", Fn.ReachesStep},
                             {"trains", Fn.Trains},      {"callees", Fn.Callees},
                             {"direct_callees", Fn.DirectCallees}};
    for (const auto &[Usr, Sites] : S.HotCalls)
      for (const HotCallSite &H : Sites)
        F["hot_calls"][Usr].push_back({{"file", H.File}, {"line", H.Line}, {"column", H.Column},
                                       {"loop_file", H.LoopFile}, {"loop_line", H.LoopLine},
                                       {"loop_column", H.LoopColumn}, {"caller", H.Caller},
                                       {"training", H.Training}, {"invariant_args", H.InvariantArgs}});
    Out["files"][File] = std::move(F);
  }
  return Out.dump(1);
}

llvm::Expected<ProjectSummaries> ProjectSummaries::fromJson(llvm::StringRef Text, llvm::StringRef Source) {
  ProjectSummaries P;
  try {
    json In = json::parse(Text.begin(), Text.end());
    // An older tool's summaries are rebuilt, as a cache's would be.
    if (In.is_object() && In.value("version", 0) < SummaryVersion)
      return P;
    if (In.value("version", 0) != SummaryVersion)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: unknown summary version",
                                     Source.str().c_str());
    for (auto It = In.at("files").begin(); It != In.at("files").end(); ++It) {
      FileSummary S;
      S.File = It.key();
      S.MTime = It->at("mtime").get<int64_t>();
      S.Size = It->at("size").get<uint64_t>();
      S.Uses = It->at("uses").get<std::set<std::string>>();
      S.GradOffCalls = It->at("grad_off_calls").get<std::map<std::string, bool>>();
      S.UsesDevice = It->at("uses_device").get<bool>();
      for (auto F = It->at("functions").begin(); F != It->at("functions").end(); ++F) {
        FunctionFacts Fn;
        Fn.Name = F->at("name").get<std::string>();
        Fn.File = F->at("file").get<std::string>();
        Fn.Line = F->at("line").get<unsigned>();
        Fn.StepsDirectly = F->at("steps_directly").get<bool>();
        Fn.ReachesStep = F->at("reaches_step").get<bool>();
        Fn.Trains = F->at("trains").get<bool>();
        Fn.Callees = F->at("callees").get<std::vector<std::string>>();
        Fn.DirectCallees = F->at("direct_callees").get<std::vector<std::string>>();
        S.Functions[F.key()] = std::move(Fn);
      }
      for (auto H = It->at("hot_calls").begin(); H != It->at("hot_calls").end(); ++H)
        for (const json &J : *H)
          S.HotCalls[H.key()].push_back(HotCallSite{J.at("file").get<std::string>(), J.at("line").get<unsigned>(),
                                                    J.at("column").get<unsigned>(), J.at("loop_file").get<std::string>(),
                                                    J.at("loop_line").get<unsigned>(), J.at("loop_column").get<unsigned>(),
                                                    J.at("caller").get<std::string>(), J.at("training").get<bool>(),
                                                    J.at("invariant_args").get<std::vector<unsigned>>()});
      P.add(std::move(S));
    }
  } catch (const std::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid summaries: %s", Source.str().c_str(),
                                   E.what());
  }
  P.resolve();
  return P;
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
