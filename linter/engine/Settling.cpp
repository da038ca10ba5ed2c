#include "engine/Settling.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace mlperf::lint {

using clang::tidy::mlperf::FileSummary;
using clang::tidy::mlperf::PinProjectSummaries;
using clang::tidy::mlperf::ProjectSummaries;

FactSettling::FactSettling(const std::vector<std::string> &Files, unsigned Jobs, unsigned InFlight, Summaries Base,
                           unsigned MaxPasses)
    : States(Files.size()), InFlight(std::max({InFlight, Jobs, 1u})), MaxPasses(std::max(MaxPasses, 1u)),
      FreeSlots(std::max(Jobs, 1u)), Pending(Files.size()),
      Current(Base ? std::move(Base) : std::make_shared<const ProjectSummaries>()) {
  for (size_t I = 0; I < Files.size(); ++I)
    Index.emplace(Files[I], I);
}

void FactSettling::acquireSlot(std::unique_lock<std::mutex> &Lock, FileState &F) {
  Cv.wait(Lock, [&] { return FreeSlots > 0; });
  --FreeSlots;
  F.Slot = true;
}

void FactSettling::releaseSlot(FileState &F) {
  if (!F.Slot)
    return;
  F.Slot = false;
  ++FreeSlots;
  Cv.notify_all();
}

void FactSettling::start(size_t I) {
  std::unique_lock<std::mutex> Lock(Mu);
  FileState &F = States[I];
  --Pending;
  ++Active;
  F.St = State::Running;
  acquireSlot(Lock, F);
}

void FactSettling::done(size_t I, const FileSummary *Kept) {
  std::unique_lock<std::mutex> Lock(Mu);
  FileState &F = States[I];
  if (F.St == State::Running || F.St == State::Again)
    --Active; // ended without settling (a cache hit, a crash, a cancelled parse)
  if (F.Tentative) {
    F.Tentative = false;
    // An earlier parse was kept: its summary replaces the last one published,
    // and its findings read what that parse settled with.
    if (Kept && F.Published && Kept->Parse != F.Published->Parse && F.ReadByParse.count(Kept->Parse)) {
      F.Published = *Kept;
      F.Read = F.ReadByParse[Kept->Parse];
      F.Fresh = true;
    }
  }
  F.ReadByParse.clear();
  F.St = State::Done;
  releaseSlot(F);
  maybeResolve();
}

std::pair<FileSummary, FactSettling::Summaries>
FactSettling::settle(const std::string &File, llvm::function_ref<FileSummary()> Summarize, bool Tentative) {
  std::unique_lock<std::mutex> Lock(Mu);
  auto It = Index.find(File);
  if (It == Index.end()) { // not one of the files started here: alone, with what is known
    Summaries View = Current;
    Lock.unlock();
    PinProjectSummaries Pin(View);
    return {Summarize(), View};
  }
  FileState &F = States[It->second];
  if (F.St == State::Settled) { // parsed again (a recovery, or without the preamble)
    F.St = State::Running;
    ++Active;
  }
  F.Tentative = Tentative;
  const unsigned Parse = ++F.Parses;
  while (true) {
    Summaries View = Current;
    Lock.unlock();
    FileSummary S;
    {
      PinProjectSummaries Pin(View);
      S = Summarize();
    }
    S.Parse = Parse;
    std::string Read = View->dependencies(S);
    Lock.lock();
    F.Published = std::move(S);
    F.Read = std::move(Read);
    F.St = State::Waiting;
    --Active;
    ++Waiting;
    releaseSlot(F);
    maybeResolve();
    Cv.wait(Lock, [&] { return F.St != State::Waiting; });
    acquireSlot(Lock, F);
    if (F.St == State::Settled) {
      if (F.Tentative)
        F.ReadByParse[Parse] = F.Read;
      return {*F.Published, F.View};
    }
    F.St = State::Running;
  }
}

void FactSettling::maybeResolve() {
  if (Active || !Waiting)
    return;
  // A thread not held by a waiting file starts the next one: its summary
  // may change what the waiting files read.
  if (Pending && Waiting < InFlight)
    return;
  auto Next = std::make_shared<ProjectSummaries>(*Current);
  for (FileState &F : States)
    if (F.St == State::Waiting || F.Fresh) {
      Next->add(*F.Published);
      F.Fresh = false;
    }
  Next->resolve();
  Current = Next;
  ++Passes;
  ++WindowPasses;
  std::vector<FileState *> Again;
  for (FileState &F : States)
    if (F.St == State::Waiting && Next->dependencies(*F.Published) != F.Read)
      Again.push_back(&F);
  if (!Again.empty() && WindowPasses < MaxPasses) {
    for (FileState *F : Again) {
      F->St = State::Again;
      --Waiting;
      ++Active;
    }
  } else {
    // While a file may yet replace its summary, only such files settle (their
    // checks run, their recoveries go on); the others wait for its last.
    const bool Hold = llvm::any_of(States, [](const FileState &F) { return F.Tentative && F.St != State::Done; });
    for (FileState &F : States)
      if (F.St == State::Waiting && (!Hold || F.Tentative)) {
        F.Read = Next->dependencies(*F.Published);
        F.HasRead = true;
        F.View = Current;
        F.St = State::Settled;
        --Waiting;
      }
    WindowPasses = 0;
  }
  Cv.notify_all();
}

std::optional<std::string> FactSettling::read(size_t I) const {
  std::lock_guard<std::mutex> Lock(Mu);
  const FileState &F = States[I];
  return F.HasRead ? std::optional<std::string>(F.Read) : std::nullopt;
}

unsigned FactSettling::passes() const {
  std::lock_guard<std::mutex> Lock(Mu);
  return Passes;
}

} // namespace mlperf::lint
