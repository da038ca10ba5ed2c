#include "ProjectSummaries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>

namespace clang::tidy::mlperf {

namespace {
std::mutex Mu;
std::shared_ptr<const ProjectSummaries> Current;
} // namespace

std::shared_ptr<const ProjectSummaries> projectSummaries() {
  std::lock_guard<std::mutex> Lock(Mu);
  return Current;
}

void setProjectSummaries(std::shared_ptr<const ProjectSummaries> S) {
  std::lock_guard<std::mutex> Lock(Mu);
  Current = std::move(S);
}

ProjectSummaries::ProjectSummaries(const ProjectSummaries &Other)
    : Files(Other.Files), Resolved(Other.Resolved), Ambiguous(Other.Ambiguous) {
  if (Other.Indexed)
    index();
}

ProjectSummaries &ProjectSummaries::operator=(const ProjectSummaries &Other) {
  if (this != &Other)
    *this = ProjectSummaries(Other);
  return *this;
}

void ProjectSummaries::add(FileSummary S) {
  Indexed = false;
  Files[S.File] = std::move(S);
}

void ProjectSummaries::index() {
  HotCallers.clear();
  GradOffCallers.clear();
  DeviceUsers.clear();
  for (const auto &[File, S] : Files) {
    for (const auto &[Usr, Calls] : S.HotCalls)
      HotCallers[Usr].push_back(&S);
    for (const auto &[Usr, Off] : S.GradOffCalls)
      GradOffCallers[Usr].push_back(&S);
    if (S.UsesDevice)
      DeviceUsers.push_back(&S);
  }
  Indexed = true;
}

template <typename Fn>
void ProjectSummaries::forFilesNaming(const std::map<std::string, std::vector<const FileSummary *>> &Index,
                                      llvm::StringRef Usr, Fn Visit) const {
  if (!Indexed) {
    for (const auto &[File, S] : Files)
      if (!Visit(S))
        return;
    return;
  }
  auto It = Index.find(Usr.str());
  if (It == Index.end())
    return;
  for (const FileSummary *S : It->second)
    if (!Visit(*S))
      return;
}

void ProjectSummaries::resolve() {
  index();
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
  const HotCallSite *Found = nullptr;
  forFilesNaming(HotCallers, Usr, [&](const FileSummary &S) {
    if (S.File == NotFrom)
      return true;
    auto It = S.HotCalls.find(Usr.str());
    if (It != S.HotCalls.end() && !It->second.empty())
      Found = &It->second.front();
    return !Found;
  });
  return Found;
}

std::vector<unsigned> ProjectSummaries::sameValueArgs(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  std::optional<std::vector<unsigned>> Common;
  if (Ambiguous.count(Usr.str()))
    return {};
  forFilesNaming(HotCallers, Usr, [&](const FileSummary &S) {
    auto It = S.HotCalls.find(Usr.str());
    if (S.File == NotFrom || It == S.HotCalls.end())
      return true;
    for (const HotCallSite &H : It->second) {
      if (!Common)
        Common = H.InvariantArgs;
      llvm::erase_if(*Common, [&](unsigned I) { return !llvm::is_contained(H.InvariantArgs, I); });
    }
    return true;
  });
  return Common.value_or(std::vector<unsigned>());
}

bool ProjectSummaries::passesSameValue(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const {
  return llvm::is_contained(sameValueArgs(Usr, NotFrom), Index);
}

bool ProjectSummaries::calledWithGradOff(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  bool Called = false, Off = true;
  forFilesNaming(GradOffCallers, Usr, [&](const FileSummary &S) {
    if (S.File == NotFrom)
      return true;
    if (auto It = S.GradOffCalls.find(Usr.str()); It != S.GradOffCalls.end()) {
      Off = It->second;
      Called = true;
    }
    return Off;
  });
  return Called && Off;
}

bool ProjectSummaries::anyUsesDevice(llvm::StringRef NotFrom) const {
  if (Indexed)
    return llvm::any_of(DeviceUsers, [&](const FileSummary *S) { return S->File != NotFrom; });
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
      OS << "calls\x1f" << Usr << '\x1f' << F->Name << '\x1f' << F->File << ':' << F->Line << '\x1f' << F->StepsDirectly
         << F->ReachesStep << F->Trains << '\n';
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

} // namespace clang::tidy::mlperf
