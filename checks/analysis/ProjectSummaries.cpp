#include "ProjectSummaries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
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

void ProjectSummaries::add(FileSummary S) { Files[S.File] = std::move(S); }

namespace {
std::string parentOf(llvm::StringRef Path) { return llvm::sys::path::parent_path(Path).str(); }
} // namespace

void ProjectSummaries::resolveView(View &V, const std::map<std::string, FileSummary> &Files) {
  for (const std::string &File : V.Files) {
    const FileSummary &S = Files.at(File);
    for (const auto &[Usr, Calls] : S.HotCalls)
      V.HotCallers[Usr].push_back(File);
    for (const auto &[Usr, Off] : S.GradOffCalls)
      V.GradOffCallers[Usr].push_back(File);
    for (const auto &[Usr, Calls] : S.ChurnCalls)
      V.ChurnCallers[Usr].push_back(File);
    if (S.UsesDevice)
      V.DeviceUsers.push_back(File);
  }
  for (const std::string &File : V.Files)
    for (const auto &[Usr, F] : Files.at(File).Functions) {
      auto [It, New] = V.Resolved.try_emplace(Usr, F);
      // A header's inline function is defined in every file that includes
      // it; two different definitions (two programs' `train`) say nothing.
      if (!New && (It->second.File != F.File || It->second.Line != F.Line))
        V.Ambiguous.insert(Usr);
    }
  for (const std::string &Usr : V.Ambiguous)
    V.Resolved.erase(Usr);
  // Facts flow from callees to callers until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Usr, F] : V.Resolved)
      for (const std::string &Callee : F.Callees) {
        auto It = V.Resolved.find(Callee);
        if (It == V.Resolved.end() || &It->second == &F)
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

std::string ProjectSummaries::viewKey(llvm::StringRef File) const {
  if (Mains.count(File.str()))
    return File.str();
  for (std::string D = parentOf(File);; D = parentOf(D)) {
    if (MainDirs.count(D))
      return "dir:" + D;
    if (D.empty() || parentOf(D) == D)
      return "";
  }
}

void ProjectSummaries::resolve() {
  Mains.clear();
  MainDirs.clear();
  Views.clear();
  for (const auto &[File, S] : Files)
    if (llvm::any_of(S.Functions, [](const auto &F) { return F.second.Name == "main"; })) {
      Mains.insert(File);
      MainDirs[parentOf(File)].push_back(File);
    }
  // The views: everything (""), each main's program, each main directory's
  // programs together (for the other files there).
  std::map<std::string, std::string> KeyOf;
  for (const auto &[File, S] : Files)
    KeyOf[File] = viewKey(File);
  Views[""];
  for (const std::string &M : Mains)
    Views[M];
  for (const auto &[Dir, Ms] : MainDirs)
    Views["dir:" + Dir];
  for (auto &[Key, V] : Views) {
    bool OfDir = llvm::StringRef(Key).starts_with("dir:");
    std::string Dir = OfDir ? Key.substr(4) : parentOf(Key);
    for (const auto &[File, K] : KeyOf) {
      bool Seen = Key.empty() || K.empty() || File == Key;         // everything, shared code, itself
      Seen |= K == "dir:" + Dir;                                   // a non-main file of the program's directory
      Seen |= OfDir && Mains.count(File) && parentOf(File) == Dir; // the directory's mains
      if (Seen)
        V.Files.push_back(File);
    }
    resolveView(V, Files);
  }
}

const ProjectSummaries::View &ProjectSummaries::viewOf(llvm::StringRef File) const {
  static const View None;
  auto It = Views.find(File.empty() ? "" : viewKey(File));
  if (It == Views.end())
    It = Views.find("");
  return It == Views.end() ? None : It->second;
}

const FunctionFacts *ProjectSummaries::function(llvm::StringRef Usr, llvm::StringRef From) const {
  const View &V = viewOf(From);
  auto It = V.Resolved.find(Usr.str());
  return It == V.Resolved.end() ? nullptr : &It->second;
}

bool ProjectSummaries::calledFrom(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  return llvm::any_of(V.Files,
                      [&](const std::string &File) { return File != NotFrom && Files.at(File).Uses.count(Usr.str()); });
}

const HotCallSite *ProjectSummaries::hotCaller(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return nullptr;
  auto Callers = V.HotCallers.find(Usr.str());
  if (Callers == V.HotCallers.end())
    return nullptr;
  for (const std::string &File : Callers->second) {
    if (File == NotFrom)
      continue;
    const FileSummary &S = Files.at(File);
    auto It = S.HotCalls.find(Usr.str());
    if (It != S.HotCalls.end() && !It->second.empty())
      return &It->second.front();
  }
  return nullptr;
}

std::vector<const ChurnCall *> ProjectSummaries::churnCalls(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  std::vector<const ChurnCall *> Out;
  const View &V = viewOf(NotFrom);
  auto Callers = V.ChurnCallers.find(Usr.str());
  if (V.Ambiguous.count(Usr.str()) || Callers == V.ChurnCallers.end())
    return Out;
  for (const std::string &File : Callers->second) {
    if (File == NotFrom)
      continue;
    const FileSummary &S = Files.at(File);
    if (auto It = S.ChurnCalls.find(Usr.str()); It != S.ChurnCalls.end())
      for (const ChurnCall &C : It->second)
        Out.push_back(&C);
  }
  return Out;
}

std::vector<unsigned> ProjectSummaries::sameValueArgs(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  std::optional<std::vector<unsigned>> Common;
  const View &V = viewOf(NotFrom);
  auto Callers = V.HotCallers.find(Usr.str());
  if (V.Ambiguous.count(Usr.str()) || Callers == V.HotCallers.end())
    return {};
  for (const std::string &File : Callers->second) {
    const FileSummary &S = Files.at(File);
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
  const View &V = viewOf(NotFrom);
  auto Callers = V.GradOffCallers.find(Usr.str());
  if (Callers == V.GradOffCallers.end())
    return false;
  for (const std::string &File : Callers->second) {
    if (File == NotFrom)
      continue;
    const FileSummary &S = Files.at(File);
    if (auto It = S.GradOffCalls.find(Usr.str()); It != S.GradOffCalls.end()) {
      if (!It->second)
        return false;
      Called = true;
    }
  }
  return Called;
}

bool ProjectSummaries::anyUsesDevice(llvm::StringRef NotFrom) const {
  return llvm::any_of(viewOf(NotFrom).DeviceUsers, [&](const std::string &File) { return File != NotFrom; });
}

std::string ProjectSummaries::dependencies(const FileSummary &S) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const std::string &Usr : S.Uses)
    if (const FunctionFacts *F = function(Usr, S.File)) {
      OS << "calls\x1f" << Usr << '\x1f' << F->Name << '\x1f' << F->File << ':' << F->Line << '\x1f' << F->StepsDirectly
         << F->ReachesStep << F->Trains << '\x1f' << F->ReturnedAcquire;
      for (unsigned I : F->ReleasedParams)
        OS << '\x1f' << I;
      OS << '\n';
    }
  for (const auto &[Usr, Fn] : S.Functions)
    if (const HotCallSite *H = hotCaller(Usr, S.File))
      OS << "called\x1f" << Usr << '\x1f' << H->File << ':' << H->Line << ':' << H->Column << '\x1f' << H->LoopFile
         << ':' << H->LoopLine << ':' << H->LoopColumn << '\x1f' << H->Caller << '\x1f' << H->Training << '\n';
  // Where other files release, every step, what these functions return.
  for (const auto &[Usr, Fn] : S.Functions)
    for (const ChurnCall *C : churnCalls(Usr, S.File))
      OS << "churn\x1f" << Usr << '\x1f' << C->Site.File << ':' << C->Site.Line << ':' << C->Site.Column << '\x1f'
         << C->Site.LoopFile << ':' << C->Site.LoopLine << ':' << C->Site.LoopColumn << '\x1f' << C->Site.Caller
         << '\x1f' << C->Request << '\x1f' << C->Release << ':' << C->ReleaseLine << ':' << C->ReleaseColumn << '\n';
  // Which arguments every per-step call from elsewhere passes unchanged.
  for (const auto &[Usr, Fn] : S.Functions)
    for (unsigned I : sameValueArgs(Usr, S.File))
      OS << "same-arg\x1f" << Usr << '\x1f' << I << '\n';
  for (const auto &[Usr, Fn] : S.Functions)
    if (calledWithGradOff(Usr, S.File))
      OS << "grad-off\x1f" << Usr << '\n';
  // Whether anything else calls them (perRequest's entry points).
  for (const auto &[Usr, Fn] : S.Functions)
    if (calledFrom(Usr, S.File))
      OS << "used\x1f" << Usr << '\n';
  if (!S.UsesDevice && anyUsesDevice(S.File))
    OS << "device\n";
  return Out;
}

} // namespace clang::tidy::mlperf
