// Whole-project facts settled in memory (linter/engine/Settling.h): files
// that wait with their summaries until every file in flight has published
// its own, summarized again (never parsed again) while what they read
// changes. The files' "analyses" here are functions of the summaries they
// see, as ModelAnalysis is: a loop in train.cc is a step loop once step()
// is known to run the model, and step() in helper.cc is per step once
// train.cc's summary says so.
#include "engine/Settling.h"
#include "analysis/Summaries.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <map>
#include <thread>
#include <tuple>

namespace mlperf::test {
namespace {

using namespace clang::tidy::mlperf;
using lint::FactSettling;

FunctionFacts function(const std::string &Name, const std::string &File, std::vector<std::string> Callees = {}) {
  FunctionFacts F;
  F.Name = Name;
  F.File = File;
  F.Line = 1;
  F.Callees = Callees;
  F.DirectCallees = std::move(Callees);
  return F;
}

/// train.cc: `for (...) step();` -- a per-step call once step() reaches a step.
FileSummary summarizeTrain() {
  FileSummary S;
  S.File = "train.cc";
  S.Functions["u:train"] = function("train", "train.cc", {"u:step"});
  S.Uses = {"u:step"};
  const FunctionFacts *Step = projectSummaries()->function("u:step", "train.cc");
  if (Step && Step->ReachesStep)
    S.HotCalls["u:step"].push_back(HotCallSite{"train.cc", 3, 5, "train.cc", 2, 3, "train", true, {}});
  return S;
}

/// helper.cc: `void step() { forward(); }` with forward() in model.cc; its
/// call of forward() is per step when step() is.
FileSummary summarizeHelper() {
  FileSummary S;
  S.File = "helper.cc";
  S.Functions["u:step"] = function("step", "helper.cc", {"u:forward"});
  S.Uses = {"u:forward"};
  if (const HotCallSite *H = projectSummaries()->hotCaller("u:step", "helper.cc"))
    S.HotCalls["u:forward"].push_back(
        HotCallSite{"helper.cc", 1, 20, H->LoopFile, H->LoopLine, H->LoopColumn, "step", H->Training, {}});
  return S;
}

/// model.cc: forward() runs the model.
FileSummary summarizeModel() {
  FileSummary S;
  S.File = "model.cc";
  S.Functions["u:forward"] = function("forward", "model.cc");
  S.Functions["u:forward"].StepsDirectly = S.Functions["u:forward"].ReachesStep = true;
  return S;
}

struct Outcome {
  FileSummary Summary;
  FactSettling::Summaries Settled;
  unsigned Analyses = 0;
};

const std::vector<std::string> Files = {"train.cc", "helper.cc", "model.cc"};

/// Runs \p One for each of Files, each on a thread of its own, as runFiles does.
void onThreads(const std::function<void(size_t)> &One) {
  std::vector<std::thread> Workers;
  for (size_t I = 0; I < Files.size(); ++I)
    Workers.emplace_back(One, I);
  for (std::thread &W : Workers)
    W.join();
}

/// Runs the three files as runFiles does: each on its thread (in order when
/// \p Threads is 1), started, settled unless it is \p Ends (a crash or a
/// cache hit: done without settling), done.
std::map<std::string, Outcome> run(FactSettling &Settling, unsigned Threads, const std::string &Ends = "") {
  std::map<std::string, Outcome> Out;
  for (const std::string &F : Files)
    Out[F];
  std::map<std::string, FileSummary (*)()> Analysis = {
      {"train.cc", summarizeTrain}, {"helper.cc", summarizeHelper}, {"model.cc", summarizeModel}};
  auto One = [&](size_t I) {
    const std::string &F = Files[I];
    Settling.start(I);
    if (F != Ends) {
      Outcome &O = Out[F];
      auto [Summary, Settled] = Settling.settle(F, [&] {
        ++O.Analyses;
        return Analysis[F]();
      });
      O.Summary = std::move(Summary);
      O.Settled = std::move(Settled);
    }
    Settling.done(I);
  };
  if (Threads == 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      One(I);
    return Out;
  }
  onThreads(One);
  return Out;
}

TEST(Settling, AChainOfPerStepCallsThroughThreeFilesSettlesInMemory) {
  FactSettling Settling(Files, /*Jobs=*/2, /*InFlight=*/3, std::make_shared<ProjectSummaries>(), /*MaxPasses=*/8);
  std::map<std::string, Outcome> Out = run(Settling, 3);

  // Each file's checks see the settled facts: train.cc's loop runs the
  // model through step(), step() is called on every step, and so, through
  // it, is forward().
  const ProjectSummaries &Train = *Out["train.cc"].Settled;
  ASSERT_TRUE(Train.function("u:step", "train.cc"));
  EXPECT_TRUE(Train.function("u:step", "train.cc")->ReachesStep);
  EXPECT_EQ(Out["train.cc"].Summary.HotCalls.count("u:step"), 1u);
  const HotCallSite *Step = Out["helper.cc"].Settled->hotCaller("u:step", "helper.cc");
  ASSERT_TRUE(Step);
  EXPECT_EQ(Step->File, "train.cc");
  const HotCallSite *Forward = Out["model.cc"].Settled->hotCaller("u:forward", "model.cc");
  ASSERT_TRUE(Forward) << "two calls below the loop, in a third file";
  EXPECT_EQ(Forward->LoopFile, "train.cc");
  EXPECT_EQ(Forward->LoopLine, 2u);
  // Summarized again while what they read changed; each settled once, and
  // what each file's findings read is what its settled summaries say.
  EXPECT_GE(Settling.passes(), 3u);
  EXPECT_LE(Settling.passes(), 8u);
  for (size_t I = 0; I < Files.size(); ++I) {
    std::optional<std::string> Read = Settling.read(I);
    ASSERT_TRUE(Read) << Files[I];
    EXPECT_EQ(*Read, Out[Files[I]].Settled->dependencies(Out[Files[I]].Summary)) << Files[I];
    EXPECT_GE(Out[Files[I]].Analyses, 1u);
  }
  EXPECT_GE(Out["helper.cc"].Analyses, 2u) << "helper.cc read train.cc's per-step call";
}

TEST(Settling, TheSameFactsWhateverOrderTheFilesArrive) {
  // One job: the files parse one at a time, in order, and the first ones
  // wait for the last; the settled facts are those of three at once.
  FactSettling Settling(Files, /*Jobs=*/1, /*InFlight=*/3, std::make_shared<ProjectSummaries>(), 8);
  std::map<std::string, Outcome> Out = run(Settling, 3);
  ASSERT_TRUE(Out["model.cc"].Settled);
  EXPECT_TRUE(Out["model.cc"].Settled->hotCaller("u:forward", "model.cc"));
  EXPECT_EQ(Out["helper.cc"].Summary.HotCalls.count("u:forward"), 1u);
}

TEST(Settling, FilesBeyondWhatMemoryHoldsSettleWithWhatIsKnown) {
  // One file in memory: each settles alone, against the files before it;
  // train.cc cannot know yet that step() runs the model (WholeProject.cpp
  // parses it again in a second round).
  FactSettling Settling(Files, /*Jobs=*/1, /*InFlight=*/1, std::make_shared<ProjectSummaries>(), 8);
  std::map<std::string, Outcome> Out = run(Settling, 1);
  EXPECT_EQ(Settling.passes(), 3u);
  EXPECT_TRUE(Out["train.cc"].Summary.HotCalls.empty());
  EXPECT_FALSE(Out["model.cc"].Settled->hotCaller("u:forward", "model.cc"));
  ASSERT_TRUE(Settling.read(0));
}

TEST(Settling, AFileThatEndsWithoutSettlingDoesNotHoldTheOthers) {
  // helper.cc crashes (or is replayed from the cache): the other two settle
  // without it, and its read is unknown.
  FactSettling Settling(Files, /*Jobs=*/2, /*InFlight=*/3, std::make_shared<ProjectSummaries>(), 8);
  std::map<std::string, Outcome> Out = run(Settling, 3, "helper.cc");
  EXPECT_FALSE(Settling.read(1));
  ASSERT_TRUE(Settling.read(0));
  ASSERT_TRUE(Settling.read(2));
  EXPECT_TRUE(Out["train.cc"].Settled->function("u:forward", "train.cc"));
  EXPECT_FALSE(Out["model.cc"].Settled->hotCaller("u:forward", "model.cc"));
}

/// model.cc parsed twice within its run, as a recovery from a header not
/// found does: its first parse's forward() runs nothing (the call had no
/// type), its second's runs the model; \p KeepFirst: the run keeps the first.
std::map<std::string, Outcome> runRecovering(FactSettling &Settling, bool KeepFirst) {
  std::map<std::string, Outcome> Out;
  for (const std::string &F : Files)
    Out[F];
  std::map<std::string, FileSummary (*)()> Analysis = {{"train.cc", summarizeTrain}, {"helper.cc", summarizeHelper}};
  auto One = [&](size_t I) {
    const std::string &F = Files[I];
    Outcome &O = Out[F];
    Settling.start(I);
    if (F != "model.cc") {
      std::tie(O.Summary, O.Settled) = Settling.settle(F, Analysis[F]);
      Settling.done(I);
      return;
    }
    auto [First, FirstView] = Settling.settle(
        F,
        [] {
          FileSummary S = summarizeModel();
          S.Functions["u:forward"].StepsDirectly = S.Functions["u:forward"].ReachesStep = false;
          return S;
        },
        /*Tentative=*/true);
    EXPECT_FALSE(First.Functions["u:forward"].ReachesStep);
    auto [Second, SecondView] = Settling.settle(F, summarizeModel, /*Tentative=*/true);
    std::tie(O.Summary, O.Settled) = KeepFirst ? std::tie(First, FirstView) : std::tie(Second, SecondView);
    Settling.done(I, &O.Summary);
  };
  onThreads(One);
  return Out;
}

TEST(Settling, FilesWaitForTheSummaryARecoveringFileKeeps) {
  // The others settle with the summary of the parse model.cc keeps, never
  // with one it replaced: train.cc's loop runs the model through step()
  // only with the second, and what each reads is what it settled with.
  for (bool KeepFirst : {false, true}) {
    SCOPED_TRACE(KeepFirst ? "first parse kept" : "second parse kept");
    FactSettling Settling(Files, /*Jobs=*/2, /*InFlight=*/3, std::make_shared<ProjectSummaries>(), 8);
    std::map<std::string, Outcome> Out = runRecovering(Settling, KeepFirst);
    EXPECT_EQ(Out["train.cc"].Summary.HotCalls.count("u:step"), KeepFirst ? 0u : 1u);
    EXPECT_EQ(Out["helper.cc"].Summary.HotCalls.count("u:forward"), KeepFirst ? 0u : 1u);
    EXPECT_EQ(Out["model.cc"].Summary.Parse, KeepFirst ? 1u : 2u);
    for (size_t I = 0; I < Files.size(); ++I) {
      std::optional<std::string> Read = Settling.read(I);
      ASSERT_TRUE(Read) << Files[I];
      EXPECT_EQ(*Read, Out[Files[I]].Settled->dependencies(Out[Files[I]].Summary)) << Files[I];
    }
  }
}

TEST(Settling, PassesAreBounded) {
  // A file whose summary changes every time it is summarized (which no
  // analysis does; a defect must not hang the run) settles at the bound.
  std::vector<std::string> One = {"flip.cc"};
  FactSettling Settling(One, 1, 1, std::make_shared<ProjectSummaries>(), /*MaxPasses=*/4);
  std::atomic<unsigned> N = 0;
  Settling.start(0);
  Settling.settle("flip.cc", [&] {
    FileSummary S;
    S.File = "flip.cc";
    S.Uses = {"u:f"};
    S.Functions["u:g"] = function("g", "flip.cc");
    // Reads f's facts, and defines f only every other time.
    if (++N % 2)
      S.Functions["u:f"] = function("f", "flip.cc");
    return S;
  });
  Settling.done(0);
  EXPECT_EQ(Settling.passes(), 4u);
  EXPECT_EQ(N.load(), 4u);
}

} // namespace
} // namespace mlperf::test
