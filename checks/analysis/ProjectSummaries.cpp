#include "ProjectSummaries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <mutex>
#include <optional>

namespace clang::tidy::mlperf {

namespace {
std::mutex Mu;
std::shared_ptr<const ProjectSummaries> Current;
thread_local std::shared_ptr<const ProjectSummaries> Pinned;
thread_local bool IsPinned = false;
} // namespace

std::shared_ptr<const ProjectSummaries> projectSummaries() {
  if (IsPinned)
    return Pinned;
  std::lock_guard<std::mutex> Lock(Mu);
  return Current;
}

PinProjectSummaries::PinProjectSummaries(std::shared_ptr<const ProjectSummaries> S)
    : Before(std::move(Pinned)), WasPinned(IsPinned) {
  Pinned = std::move(S);
  IsPinned = true;
}

PinProjectSummaries::~PinProjectSummaries() {
  Pinned = std::move(Before);
  IsPinned = WasPinned;
}

void setProjectSummaries(std::shared_ptr<const ProjectSummaries> S) {
  std::lock_guard<std::mutex> Lock(Mu);
  Current = std::move(S);
}

void ProjectSummaries::add(FileSummary S) { Files[S.File] = std::move(S); }

bool ProjectSummaries::remove(llvm::StringRef File) { return Files.erase(File.str()) > 0; }

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
    for (const auto &[Usr, Args] : S.DeviceArgs)
      V.DeviceArgCallers[Usr].push_back(File);
    for (const std::string &Usr : S.Uses)
      V.Callers[Usr].push_back(File);
    for (const auto &[Usr, F] : S.Functions)
      V.Defined.insert(Usr);
    for (const auto &[Usr, Calls] : S.LoopCalls)
      V.LoopCallers[Usr].push_back(File);
    for (const auto &[Key, Calls] : S.ParamCalls)
      V.ParamCallers[Key].push_back(File);
    for (const auto &[Usr, Callables] : S.Passed)
      for (const PassedCallable &P : Callables) {
        FunctionFacts &F = V.PassedFacts[Usr + "#" + std::to_string(P.Index)];
        F.Name = "callable";
        F.StepsDirectly |= P.StepsDirectly;
        F.ReachesStep |= P.ReachesStep;
        F.Trains |= P.Trains;
      }
    if (S.UsesDevice)
      V.DeviceUsers.push_back(File);
    for (const std::string &Usr : S.WrittenFields)
      V.FieldWriters[Usr].push_back(File);
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
  // A call of a virtual method may run each of its overrides: they become
  // its callees (an undefined one, a pure virtual method, gets a stand-in
  // whose facts are theirs).
  std::map<std::string, std::vector<std::string>> Overriders;
  for (const auto &[Usr, F] : V.Resolved)
    for (const std::string &Base : F.Overrides)
      Overriders[Base].push_back(Usr);
  for (const auto &[Base, Ds] : Overriders) {
    auto [It, New] = V.Resolved.try_emplace(Base, V.Resolved.at(Ds.front()));
    if (New) {
      It->second.Callees.clear();
      It->second.DirectCallees.clear();
      It->second.Overrides.clear();
    }
    for (const std::string &D : Ds)
      if (!llvm::is_contained(It->second.Callees, D)) {
        It->second.Callees.push_back(D);
        It->second.DirectCallees.push_back(D);
      }
  }
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

std::vector<std::string> ProjectSummaries::View::callKeys(llvm::StringRef Usr) const {
  std::vector<std::string> Keys = {Usr.str()};
  if (auto It = Resolved.find(Usr.str()); It != Resolved.end())
    Keys.insert(Keys.end(), It->second.Overrides.begin(), It->second.Overrides.end());
  return Keys;
}

const FunctionFacts *ProjectSummaries::function(llvm::StringRef Usr, llvm::StringRef From) const {
  const View &V = viewOf(From);
  auto It = V.Resolved.find(Usr.str());
  return It == V.Resolved.end() ? nullptr : &It->second;
}

bool ProjectSummaries::defines(llvm::StringRef Usr, llvm::StringRef From) const {
  return viewOf(From).Defined.count(Usr.str()) > 0;
}

bool ProjectSummaries::calledFrom(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  return llvm::any_of(V.callKeys(Usr), [&](const std::string &K) {
    auto It = V.Callers.find(K);
    return It != V.Callers.end() && llvm::any_of(It->second, [&](const std::string &File) { return File != NotFrom; });
  });
}

/// Each call that files other than \p NotFrom (of the files \p V sees)
/// record under a key of \p Usr in \p Calls (a file summary's map of them),
/// through \p Callers (the view's index of those files); \p Fn returns false
/// to stop.
template <typename Site>
static void forEachCall(const std::map<std::string, FileSummary> &Files, llvm::ArrayRef<std::string> Keys,
                        const std::map<std::string, std::vector<std::string>> &Callers, llvm::StringRef NotFrom,
                        std::map<std::string, std::vector<Site>> FileSummary::*Calls,
                        llvm::function_ref<bool(const Site &)> Fn) {
  for (const std::string &Key : Keys) {
    auto Found = Callers.find(Key);
    if (Found == Callers.end())
      continue;
    for (const std::string &File : Found->second) {
      if (File == NotFrom)
        continue;
      const auto &Map = Files.at(File).*Calls;
      if (auto It = Map.find(Key); It != Map.end())
        for (const Site &S : It->second)
          if (!Fn(S))
            return;
    }
  }
}

/// The first call forEachCall visits that is in a training step, else the
/// first call, or null: a helper that both the training loop and an
/// evaluation loop call costs per training step.
static const HotCallSite *firstCall(const std::map<std::string, FileSummary> &Files, llvm::ArrayRef<std::string> Keys,
                                    const std::map<std::string, std::vector<std::string>> &Callers,
                                    llvm::StringRef NotFrom,
                                    std::map<std::string, std::vector<HotCallSite>> FileSummary::*Calls) {
  // A call that uses its result as it is outranks one that loads it with
  // each iteration's state (a model per checkpoint).
  auto Key = [](const HotCallSite &H) { return std::make_pair(H.Training, !H.ResultReloaded); };
  const HotCallSite *First = nullptr;
  forEachCall<HotCallSite>(Files, Keys, Callers, NotFrom, Calls, [&](const HotCallSite &H) {
    if (!First || Key(H) > Key(*First))
      First = &H;
    return !(H.Training && !H.ResultReloaded);
  });
  return First;
}

const HotCallSite *ProjectSummaries::hotCaller(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  return V.Ambiguous.count(Usr.str())
             ? nullptr
             : firstCall(Files, V.callKeys(Usr), V.HotCallers, NotFrom, &FileSummary::HotCalls);
}

const HotCallSite *ProjectSummaries::loopCaller(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  return V.Ambiguous.count(Usr.str())
             ? nullptr
             : firstCall(Files, V.callKeys(Usr), V.LoopCallers, NotFrom, &FileSummary::LoopCalls);
}

const FunctionFacts *ProjectSummaries::passedCallables(llvm::StringRef Usr, unsigned Index,
                                                       llvm::StringRef From) const {
  const View &V = viewOf(From);
  auto It = V.PassedFacts.find(Usr.str() + "#" + std::to_string(Index));
  return It == V.PassedFacts.end() ? nullptr : &It->second;
}

const HotCallSite *ProjectSummaries::paramCaller(llvm::StringRef Usr, unsigned Index, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return nullptr;
  std::vector<std::string> Keys = V.callKeys(Usr);
  for (std::string &K : Keys)
    K += "#" + std::to_string(Index);
  return firstCall(Files, Keys, V.ParamCallers, NotFrom, &FileSummary::ParamCalls);
}

std::vector<const ChurnCall *> ProjectSummaries::churnCalls(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  std::vector<const ChurnCall *> Out;
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return Out;
  forEachCall<ChurnCall>(Files, V.callKeys(Usr), V.ChurnCallers, NotFrom, &FileSummary::ChurnCalls,
                         [&](const ChurnCall &C) {
                           Out.push_back(&C);
                           return true;
                         });
  return Out;
}

std::vector<unsigned> ProjectSummaries::commonArgs(llvm::StringRef Usr, llvm::StringRef NotFrom,
                                                   std::vector<unsigned> HotCallSite::*Field) const {
  std::optional<std::vector<unsigned>> Common;
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return {};
  forEachCall<HotCallSite>(Files, V.callKeys(Usr), V.HotCallers, NotFrom, &FileSummary::HotCalls,
                           [&](const HotCallSite &H) {
                             if (!Common)
                               Common = H.*Field;
                             llvm::erase_if(*Common, [&](unsigned I) { return !llvm::is_contained(H.*Field, I); });
                             return true;
                           });
  return Common.value_or(std::vector<unsigned>());
}

std::vector<unsigned> ProjectSummaries::sameValueArgs(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  return commonArgs(Usr, NotFrom, &HotCallSite::InvariantArgs);
}

std::optional<std::string> ProjectSummaries::copiedBackBy(llvm::StringRef Usr, llvm::StringRef NotFrom,
                                                          unsigned Index) const {
  if (!llvm::is_contained(commonArgs(Usr, NotFrom, &HotCallSite::CopiedBackArgs), Index))
    return std::nullopt;
  std::optional<std::string> Where;
  const View &V = viewOf(NotFrom);
  forEachCall<HotCallSite>(Files, V.callKeys(Usr), V.HotCallers, NotFrom, &FileSummary::HotCalls,
                           [&](const HotCallSite &H) {
                             Where = H.CopiedBackAt;
                             return false;
                           });
  return Where;
}

std::optional<bool> ProjectSummaries::hotCallsWaitAfter(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  std::optional<bool> Waits;
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return std::nullopt;
  forEachCall<HotCallSite>(Files, V.callKeys(Usr), V.HotCallers, NotFrom, &FileSummary::HotCalls,
                           [&](const HotCallSite &H) {
                             Waits = H.WaitsAfter;
                             return H.WaitsAfter;
                           });
  return Waits;
}

bool ProjectSummaries::passesSameValue(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const {
  return llvm::is_contained(sameValueArgs(Usr, NotFrom), Index);
}

bool ProjectSummaries::calledWithGradOff(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  bool Called = false;
  const View &V = viewOf(NotFrom);
  for (const std::string &Key : V.callKeys(Usr)) {
    auto Callers = V.GradOffCallers.find(Key);
    if (Callers == V.GradOffCallers.end())
      continue;
    for (const std::string &File : Callers->second) {
      if (File == NotFrom)
        continue;
      const FileSummary &S = Files.at(File);
      if (auto It = S.GradOffCalls.find(Key); It != S.GradOffCalls.end()) {
        if (!It->second)
          return false;
        Called = true;
      }
    }
  }
  return Called;
}

bool ProjectSummaries::anyUsesDevice(llvm::StringRef NotFrom) const {
  return llvm::any_of(viewOf(NotFrom).DeviceUsers, [&](const std::string &File) { return File != NotFrom; });
}

bool ProjectSummaries::fieldWritten(llvm::StringRef Usr, llvm::StringRef NotFrom) const {
  const View &V = viewOf(NotFrom);
  auto Writers = V.FieldWriters.find(Usr.str());
  return Writers != V.FieldWriters.end() &&
         llvm::any_of(Writers->second, [&](const std::string &File) { return File != NotFrom; });
}

std::optional<std::string> ProjectSummaries::deviceArgument(llvm::StringRef Usr, llvm::StringRef NotFrom,
                                                            unsigned Index) const {
  std::optional<std::string> Kind;
  const View &V = viewOf(NotFrom);
  auto Callers = V.DeviceArgCallers.find(Usr.str());
  if (Callers == V.DeviceArgCallers.end() || V.Ambiguous.count(Usr.str()))
    return Kind;
  for (const std::string &File : Callers->second) {
    if (File == NotFrom)
      continue;
    const auto &Args = Files.at(File).DeviceArgs.at(Usr.str());
    if (auto It = Args.find(Index); It != Args.end())
      Kind = !Kind || *Kind == It->second ? It->second : "unknown";
  }
  return Kind;
}

bool ProjectSummaries::everyCallPasses(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index,
                                       std::map<std::string, std::map<unsigned, bool>> FileSummary::*Field) const {
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return false;
  bool Called = false;
  for (const std::string &Key : V.callKeys(Usr)) {
    auto Callers = V.Callers.find(Key);
    if (Callers == V.Callers.end())
      continue;
    for (const std::string &File : Callers->second) {
      const FileSummary &S = Files.at(File);
      if (File == NotFrom)
        continue;
      auto Args = (S.*Field).find(Key);
      if (Args == (S.*Field).end())
        return false;
      auto It = Args->second.find(Index);
      if (It == Args->second.end() || !It->second)
        return false;
      Called = true;
    }
  }
  return Called;
}

std::optional<std::string> ProjectSummaries::pageableArgument(llvm::StringRef Usr, llvm::StringRef NotFrom,
                                                              unsigned Index) const {
  const View &V = viewOf(NotFrom);
  if (V.Ambiguous.count(Usr.str()))
    return std::nullopt;
  for (const std::string &Key : V.callKeys(Usr)) {
    auto Callers = V.Callers.find(Key);
    for (const std::string &File : Callers == V.Callers.end() ? std::vector<std::string>() : Callers->second) {
      const FileSummary &S = Files.at(File);
      auto Args = S.PageableArgs.find(Key);
      if (File == NotFrom || Args == S.PageableArgs.end())
        continue;
      if (auto It = Args->second.find(Index); It != Args->second.end())
        return It->second;
    }
  }
  return std::nullopt;
}

std::optional<std::string> ProjectSummaries::pageableField(llvm::StringRef Usr, llvm::StringRef From) const {
  std::optional<std::string> Origin;
  for (const std::string &File : viewOf(From).Files) {
    const auto &Fields = Files.at(File).PointerFields;
    auto It = Fields.find(Usr.str());
    if (It == Fields.end())
      continue;
    if (It->second.empty())
      return std::nullopt;
    Origin = Origin ? Origin : It->second;
  }
  return Origin;
}

std::string ProjectSummaries::dependencies(const FileSummary &S) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const std::string &Usr : S.Uses)
    if (const FunctionFacts *F = function(Usr, S.File)) {
      OS << "calls\x1f" << Usr << '\x1f' << F->Name << '\x1f' << F->File << ':' << F->Line << '\x1f' << F->StepsDirectly
         << F->ReachesStep << F->Trains << F->ForwardForTraining << F->ReadsToHost << '\x1f' << F->ReturnedAcquire
         << '\x1f' << F->ReturnsHost;
      for (unsigned I : F->ReleasedParams)
        OS << '\x1f' << I;
      OS << "\x1fread-only";
      for (unsigned I : F->ReadOnlyParams)
        OS << '\x1f' << I;
      OS << '\n';
    }
  for (const auto &[Usr, Fn] : S.Functions)
    if (const HotCallSite *H = hotCaller(Usr, S.File))
      OS << "called\x1f" << Usr << '\x1f' << H->File << ':' << H->Line << ':' << H->Column << '\x1f' << H->LoopFile
         << ':' << H->LoopLine << ':' << H->LoopColumn << '\x1f' << H->Caller << '\x1f' << H->Training << '\x1f'
         << H->ResultUse << '\n';
  for (const auto &[Usr, Fn] : S.Functions)
    if (const HotCallSite *H = loopCaller(Usr, S.File))
      OS << "loop-called\x1f" << Usr << '\x1f' << H->File << ':' << H->Line << ':' << H->Column << '\x1f' << H->LoopFile
         << ':' << H->LoopLine << ':' << H->LoopColumn << '\x1f' << H->Caller << '\x1f' << H->Training << '\x1f'
         << H->ResultReloaded << '\n';
  // What other files pass to these functions' callable parameters, and where
  // other files call the parameters of the functions this file passes callables to.
  const View &V = viewOf(S.File);
  for (const auto &[Usr, Fn] : S.Functions)
    for (auto It = V.PassedFacts.lower_bound(Usr + "#");
         It != V.PassedFacts.end() && llvm::StringRef(It->first).starts_with(Usr + "#"); ++It)
      OS << "passed\x1f" << It->first << '\x1f' << It->second.StepsDirectly << It->second.ReachesStep
         << It->second.Trains << '\n';
  for (const auto &[Usr, Callables] : S.Passed)
    for (const PassedCallable &P : Callables)
      if (const HotCallSite *H = paramCaller(Usr, P.Index, S.File))
        OS << "param-called\x1f" << Usr << '#' << P.Index << '\x1f' << H->File << ':' << H->Line << ':' << H->Column
           << '\x1f' << H->LoopFile << ':' << H->LoopLine << ':' << H->LoopColumn << '\x1f' << H->Caller << '\x1f'
           << H->Training << '\n';
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
  for (const auto &[Usr, Fn] : S.Functions)
    if (hotCallsWaitAfter(Usr, S.File).value_or(false))
      OS << "waits-after\x1f" << Usr << '\n';
  // Whether anything else calls them (perRequest's entry points).
  for (const auto &[Usr, Fn] : S.Functions)
    if (calledFrom(Usr, S.File))
      OS << "used\x1f" << Usr << '\n';
  // The devices other files pass to these functions (their parameters' devices).
  for (const auto &[Usr, Fn] : S.Functions)
    if (auto Callers = viewOf(S.File).DeviceArgCallers.find(Usr); Callers != viewOf(S.File).DeviceArgCallers.end())
      for (const std::string &File : Callers->second)
        if (File != S.File)
          for (const auto &[I, Kind] : Files.at(File).DeviceArgs.at(Usr))
            OS << "device-arg\x1f" << Usr << '\x1f' << File << '\x1f' << I << '\x1f' << Kind << '\n';
  // The host tensors, null pointers and pageable memory other files pass to them.
  for (const auto &[Usr, Fn] : S.Functions)
    if (auto Callers = viewOf(S.File).Callers.find(Usr); Callers != viewOf(S.File).Callers.end())
      for (const std::string &File : Callers->second) {
        if (File == S.File)
          continue;
        auto Passed = [&, &Usr = Usr](const char *Name, const auto &Args) {
          if (auto It = Args.find(Usr); It != Args.end())
            for (const auto &[I, Value] : It->second)
              OS << Name << '\x1f' << Usr << '\x1f' << File << '\x1f' << I << '\x1f' << Value << '\n';
        };
        const FileSummary &Caller = Files.at(File);
        Passed("host-arg", Caller.HostArgs);
        Passed("null-arg", Caller.NullArgs);
        Passed("pageable-arg", Caller.PageableArgs);
      }
  // What the files it sees store into pointer fields, as one digest.
  std::string Stored;
  for (const std::string &File : viewOf(S.File).Files)
    if (File != S.File)
      for (const auto &[Usr, Origin] : Files.at(File).PointerFields)
        Stored += File + '\x1f' + Usr + '\x1f' + Origin + '\n';
  if (!Stored.empty())
    OS << "pointer-fields\x1f" << llvm::xxh3_64bits(Stored) << '\n';
  for (const std::string &Usr : S.Undefined)
    OS << "defined\x1f" << Usr << '\x1f' << defines(Usr, S.File) << '\n';
  if (!S.UsesDevice && anyUsesDevice(S.File))
    OS << "device\n";
  // The public fields other files change (a constant member is one no file
  // changes), as one digest: a field the file reads is not recorded.
  std::string Written;
  for (const auto &[Usr, Writers] : viewOf(S.File).FieldWriters)
    if (llvm::any_of(Writers, [&](const std::string &File) { return File != S.File; }))
      Written += Usr + '\n';
  if (!Written.empty())
    OS << "written\x1f" << llvm::xxh3_64bits(Written) << '\n';
  return Out;
}

} // namespace clang::tidy::mlperf
