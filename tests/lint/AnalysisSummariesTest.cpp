// The whole-project summaries (checks/analysis/Summaries.h): what the
// collector records of a small source, its JSON form against a checked-in
// copy, and the answers ProjectSummaries gives once files are resolved.
#include "AnalysisTestSupport.h"
#include "LintTestSupport.h"
#include "analysis/HostMemory.h"
#include "analysis/Invariance.h"
#include "analysis/Ownership.h"
#include "analysis/Summaries.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace mlperf::test {
namespace {

using namespace clang::tidy::mlperf;

const char *const ExpectedJson = MLPERF_SOURCE_DIR "/tests/lint/data/analysis/summaries.json";

/// A training loop that calls functions another file defines: per step with
/// two invariant arguments (augment), per step with a value (log_loss), and
/// once under a no-grad guard (evaluate), with the CPU as device (save);
/// predict runs the model outside any loop.
const char *const TrainSource = R"cc(
struct Net : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x);
};
torch::Tensor augment(const torch::Tensor &batch, long seed);
float evaluate(Net &net, const torch::Tensor &x);
void log_loss(float loss); void save(Net &net, torch::Device where);

void train(Net &net, torch::optim::SGD &opt, const torch::Tensor &data, long steps) {
  long seed = 7;
  torch::Tensor x = data.to(torch::kCUDA);
  for (long i = 0; i < steps; ++i) {
    torch::Tensor y = net.forward(augment(x, seed));
    y.backward();
    opt.step();
    log_loss(y.item());
  }
  torch::NoGradGuard no_grad;
  evaluate(net, x);
  save(net, torch::kCPU);
}

float predict(Net &net, const torch::Tensor &x) { return net.forward(x).item(); }
)cc";

FileSummary summarizeTrain(Snippet &S) {
  FileSummary F = summarize(S.analysis(), "input.cc");
  F.MTime = 1700000000;
  F.Size = 1234;
  return F;
}

const FunctionFacts *byName(const FileSummary &F, const std::string &Name) {
  for (const auto &[Usr, Fn] : F.Functions)
    if (Fn.Name == Name)
      return &Fn;
  return nullptr;
}

TEST(AnalysisSummaries, CollectorRecordsFunctionsCallsAndDevices) {
  Snippet S(TrainSource);
  ASSERT_TRUE(S.ok());
  FileSummary F = summarizeTrain(S);
  EXPECT_TRUE(F.UsesDevice) << "data.to(torch::kCUDA)";
  ASSERT_EQ(F.Functions.size(), 2u) << "train and predict; the declared functions are other files'";
  const FunctionFacts *Train = byName(F, "train"), *Predict = byName(F, "predict");
  ASSERT_TRUE(Train && Predict);
  EXPECT_FALSE(Train->StepsDirectly) << "its model step is in its loop";
  EXPECT_TRUE(Train->ReachesStep);
  EXPECT_TRUE(Train->Trains);
  EXPECT_TRUE(Predict->StepsDirectly);
  EXPECT_FALSE(Predict->Trains);
  EXPECT_EQ(Train->Line, 10u) << "after the stand-in's include line";

  ASSERT_TRUE(S.call("train", "augment") && S.call("train", "evaluate") && S.call("train", "log_loss"));
  std::string Augment = usrOf(S.call("train", "augment")->getDirectCallee());
  std::string Evaluate = usrOf(S.call("train", "evaluate")->getDirectCallee());
  std::string Log = usrOf(S.call("train", "log_loss")->getDirectCallee());
  EXPECT_TRUE(F.Uses.count(Augment) && F.Uses.count(Evaluate) && F.Uses.count(Log));
  EXPECT_TRUE(llvm::is_contained(Train->DirectCallees, Evaluate));
  EXPECT_FALSE(llvm::is_contained(Train->DirectCallees, Augment)) << "called in the loop";
  EXPECT_TRUE(F.GradOffCalls.at(Evaluate));
  EXPECT_FALSE(F.GradOffCalls.at(Augment));

  ASSERT_EQ(F.HotCalls.count(Augment), 1u);
  const HotCallSite &Hot = F.HotCalls.at(Augment).front();
  EXPECT_EQ(Hot.Caller, "train");
  EXPECT_TRUE(Hot.Training);
  EXPECT_EQ(Hot.LoopLine, 13u);
  EXPECT_EQ(Hot.InvariantArgs, (std::vector<unsigned>{0, 1}));
  ASSERT_EQ(F.HotCalls.count(Log), 1u);
  EXPECT_TRUE(F.HotCalls.at(Log).front().InvariantArgs.empty()) << "y.item() is a new value every step";
  EXPECT_EQ(F.HotCalls.count(Evaluate), 0u) << "evaluate runs once, after the loop";
  ASSERT_TRUE(S.call("train", "save"));
  std::string Save = usrOf(S.call("train", "save")->getDirectCallee());
  EXPECT_EQ(F.DeviceArgs[Save], (std::map<unsigned, std::string>{{1, "cpu"}})) << "the device it passes";
  EXPECT_EQ(F.DeviceArgs.size(), 1u);
}

TEST(AnalysisSummaries, CollectorRecordsThePublicFieldsChangedAfterConstruction) {
  Snippet S(R"cc(
struct Loss {
  Loss() : anchors(torch::zeros(4)), scale(1.f) { scale = 2.f; }
  torch::Tensor anchors, means, bias;
  float scale;
private:
  torch::Tensor hidden;
};
void tune(Loss &l, torch::Tensor &out) {
  l.scale = 0.5f;
  l.anchors.add_(out);
  out = l.bias + l.means.to(torch::kCUDA);
}
)cc");
  ASSERT_TRUE(S.ok());
  FileSummary F = summarizeTrain(S);
  std::set<std::string> Written;
  using namespace clang::ast_matchers;
  for (const char *Name : {"anchors", "scale"})
    Written.insert(usrOf(S.nth<clang::FieldDecl>(fieldDecl(hasName(Name)))));
  EXPECT_EQ(F.WrittenFields, Written)
      << "assigned and changed in place by tune; the constructor's own writes, a read, a copy's source and a "
         "private field are not recorded";

  // Another file's writes: the field is not constant there, and a file's
  // dependencies change with what other files write.
  ProjectSummaries P;
  FileSummary Writer, Reader;
  Writer.File = "writer.cc";
  Writer.WrittenFields = {"c:@S@Loss@FI@scale"};
  Reader.File = "reader.cc";
  P.add(Writer);
  P.add(Reader);
  P.resolve();
  EXPECT_TRUE(P.fieldWritten("c:@S@Loss@FI@scale", "reader.cc"));
  EXPECT_FALSE(P.fieldWritten("c:@S@Loss@FI@scale", "writer.cc")) << "its own writes are in its own analysis";
  EXPECT_FALSE(P.fieldWritten("c:@S@Loss@FI@means", "reader.cc"));
  EXPECT_NE(P.dependencies(Reader).find("written"), std::string::npos);
  EXPECT_EQ(P.dependencies(Writer).find("written"), std::string::npos);
}

TEST(AnalysisSummaries, JsonMatchesTheCheckedInFormAndRoundTrips) {
  Snippet S(TrainSource);
  ASSERT_TRUE(S.ok());
  ProjectSummaries P;
  P.add(summarizeTrain(S));
  P.resolve();
  std::string Json = P.toJson();
  std::string Expected = readFile(ExpectedJson);
  if (Json != Expected) {
    std::string Actual = std::string(::testing::TempDir()) + "/summaries.actual.json";
    std::error_code EC;
    llvm::raw_fd_ostream(Actual, EC) << Json;
    ADD_FAILURE() << "the summaries' JSON differs from " << ExpectedJson << "; this run's is in " << Actual;
  }
  llvm::Expected<ProjectSummaries> Back = ProjectSummaries::fromJson(Json, "summaries.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->toJson(), Json);
}

TEST(AnalysisSummaries, FromJsonRebuildsOlderVersionsAndNamesTheSourceOfErrors) {
  llvm::Expected<ProjectSummaries> Old =
      ProjectSummaries::fromJson(R"({"version": 1, "files": {"a.cc": 3}})", "s.json");
  ASSERT_TRUE(static_cast<bool>(Old)) << llvm::toString(Old.takeError());
  EXPECT_TRUE(Old->files().empty()) << "an older tool's summaries are rebuilt";

  auto Error = [](const std::string &Json) {
    llvm::Expected<ProjectSummaries> P = ProjectSummaries::fromJson(Json, "s.json");
    return P ? std::string() : llvm::toString(P.takeError());
  };
  EXPECT_EQ(Error(R"({"version": 99, "files": {}})"), "s.json: unknown summary version");
  EXPECT_NE(Error(R"({"version": 20, "files": {"a.cc": {"mtime": 1}}})").find("s.json: invalid summaries: "),
            std::string::npos);
  EXPECT_NE(Error("{").find("s.json: invalid summaries: "), std::string::npos);
  EXPECT_EQ(Error(R"({"version": 20, "files": {}})"), "");
}

FunctionFacts facts(const std::string &Name, const std::string &File, unsigned Line,
                    std::vector<std::string> Callees = {}, bool Direct = true) {
  FunctionFacts F;
  F.Name = Name;
  F.File = File;
  F.Line = Line;
  F.Callees = Callees;
  if (Direct)
    F.DirectCallees = Callees;
  return F;
}

/// a.cc's `step` runs the model and trains; b.cc's `outer` calls it outside
/// any loop and c.cc's `looped` calls it in a loop.
ProjectSummaries threeFiles() {
  FileSummary A, B, C;
  A.File = "a.cc";
  A.Functions["u:step"] = facts("step", "a.cc", 1);
  A.Functions["u:step"].StepsDirectly = A.Functions["u:step"].ReachesStep = A.Functions["u:step"].Trains = true;
  B.File = "b.cc";
  B.Functions["u:outer"] = facts("outer", "b.cc", 2, {"u:step"});
  C.File = "c.cc";
  C.Functions["u:looped"] = facts("looped", "c.cc", 3, {"u:step"}, /*Direct=*/false);
  ProjectSummaries P;
  for (FileSummary *F : {&A, &B, &C})
    P.add(*F);
  P.resolve();
  return P;
}

TEST(AnalysisSummaries, ResolveCarriesFactsAcrossFilesToCallers) {
  ProjectSummaries P = threeFiles();
  ASSERT_TRUE(P.function("u:outer"));
  EXPECT_TRUE(P.function("u:outer")->StepsDirectly);
  EXPECT_TRUE(P.function("u:outer")->Trains);
  ASSERT_TRUE(P.function("u:looped"));
  EXPECT_TRUE(P.function("u:looped")->ReachesStep);
  EXPECT_FALSE(P.function("u:looped")->StepsDirectly) << "its call of step is in a loop";
  EXPECT_FALSE(P.function("u:unknown"));
}

/// trainer.cc's loop calls Model::step, a pure virtual method; impl.cc
/// defines the override, which runs the model and reads a value every call.
TEST(AnalysisSummaries, ACallOfAVirtualMethodReachesItsOverridesInOtherFiles) {
  FileSummary Trainer, Impl;
  Trainer.File = "trainer.cc";
  Trainer.Functions["u:train"] = facts("train", "trainer.cc", 3, {"u:Model::step"}, /*Direct=*/false);
  Trainer.Uses = {"u:Model::step"};
  Trainer.HotCalls["u:Model::step"].push_back(
      HotCallSite{"trainer.cc", 5, 7, "trainer.cc", 4, 3, "train", true, {0}, "accumulate"});
  Trainer.GradOffCalls["u:Model::step"] = false;
  Impl.File = "impl.cc";
  Impl.Functions["u:Impl::step"] = facts("Impl::step", "impl.cc", 2);
  Impl.Functions["u:Impl::step"].StepsDirectly = Impl.Functions["u:Impl::step"].ReachesStep = true;
  Impl.Functions["u:Impl::step"].Overrides = {"u:Model::step"};
  ProjectSummaries P;
  P.add(Trainer);
  P.add(Impl);
  P.resolve();

  const FunctionFacts *Step = P.function("u:Model::step", "trainer.cc");
  ASSERT_TRUE(Step) << "the virtual method stands for its overrides";
  EXPECT_TRUE(Step->ReachesStep);
  EXPECT_TRUE(P.function("u:train", "trainer.cc")->ReachesStep) << "through the virtual call";
  const HotCallSite *H = P.hotCaller("u:Impl::step", "impl.cc");
  ASSERT_TRUE(H) << "a per-step call of the base's method calls the override";
  EXPECT_EQ(H->Caller, "train");
  EXPECT_EQ(H->ResultUse, "accumulate");
  EXPECT_TRUE(P.passesSameValue("u:Impl::step", "impl.cc", 0));
  EXPECT_TRUE(P.calledFrom("u:Impl::step", "impl.cc"));
  EXPECT_FALSE(P.calledWithGradOff("u:Impl::step", "impl.cc"));
  EXPECT_NE(P.dependencies(Impl).find("called\x1fu:Impl::step\x1ftrainer.cc:5:7"), std::string::npos)
      << P.dependencies(Impl);
}

TEST(AnalysisSummaries, TwoDifferentDefinitionsOfOneFunctionSayNothing) {
  ProjectSummaries P = threeFiles();
  FileSummary D;
  D.File = "d.cc";
  D.Functions["u:step"] = facts("step", "d.cc", 9);
  D.HotCalls["u:step"].push_back(HotCallSite{"e.cc", 1, 1, "e.cc", 1, 1, "main", true, {0}});
  P.add(D);
  P.resolve();
  EXPECT_FALSE(P.function("u:step"));
  EXPECT_FALSE(P.hotCaller("u:step", "a.cc"));

  // The same definition seen from two files (a header's inline function) is one.
  ProjectSummaries Q = threeFiles();
  FileSummary E;
  E.File = "e.cc";
  E.Functions["u:step"] = facts("step", "a.cc", 1);
  Q.add(E);
  Q.resolve();
  EXPECT_TRUE(Q.function("u:step"));
}

TEST(AnalysisSummaries, HotCallersGradOffAndSameArgumentsComeFromOtherFiles) {
  FileSummary Lib, Main, Other;
  Lib.File = "lib.cc";
  Lib.Functions["u:f"] = facts("f", "lib.cc", 1);
  Main.File = "main.cc";
  Main.UsesDevice = true;
  Main.HotCalls["u:f"].push_back(HotCallSite{"main.cc", 5, 3, "main.cc", 4, 1, "train", true, {0, 2}});
  Main.GradOffCalls["u:f"] = true;
  Other.File = "other.cc";
  Other.HotCalls["u:f"].push_back(HotCallSite{"other.cc", 8, 3, "other.cc", 7, 1, "eval", false, {2}});
  Other.GradOffCalls["u:f"] = true;
  ProjectSummaries P;
  for (FileSummary *F : {&Lib, &Main, &Other})
    P.add(*F);
  P.resolve();

  const HotCallSite *H = P.hotCaller("u:f", "lib.cc");
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Caller, "train");
  EXPECT_EQ(P.hotCaller("u:f", "main.cc")->Caller, "eval") << "a file's own calls do not count";
  EXPECT_TRUE(P.calledWithGradOff("u:f", "lib.cc"));
  EXPECT_FALSE(P.calledWithGradOff("u:g", "lib.cc")) << "never called";
  EXPECT_TRUE(P.passesSameValue("u:f", "lib.cc", 2));
  EXPECT_FALSE(P.passesSameValue("u:f", "lib.cc", 0)) << "other.cc passes a new value";
  EXPECT_TRUE(P.passesSameValue("u:f", "other.cc", 0));
  EXPECT_TRUE(P.anyUsesDevice("lib.cc"));
  EXPECT_FALSE(P.anyUsesDevice("main.cc"));

  Other.GradOffCalls["u:f"] = false;
  P.add(Other);
  P.resolve();
  EXPECT_FALSE(P.calledWithGradOff("u:f", "lib.cc")) << "one call with gradients on";
}

/// cuda-mlp's `matsum`: the validation loop calls it before the training loop
/// does, and in a file visited first; its read costs per training step.
TEST(AnalysisSummaries, AHelperCalledByAnEvaluationLoopFirstIsJudgedInTheTrainingLoop) {
  FileSummary Lib, Eval, Train;
  Lib.File = "matrix.cu";
  Lib.Functions["u:matsum"] = facts("matsum", "matrix.cu", 1);
  Eval.File = "a_eval.cu";
  Eval.HotCalls["u:matsum"].push_back(HotCallSite{"a_eval.cu", 9, 3, "a_eval.cu", 8, 1, "get_val_stats", false, {}});
  Eval.LoopCalls["u:matsum"].push_back(HotCallSite{"a_eval.cu", 9, 3, "a_eval.cu", 8, 1, "get_val_stats", false, {}});
  Train.File = "train.cu";
  Train.HotCalls["u:matsum"].push_back(HotCallSite{"train.cu", 30, 5, "train.cu", 20, 1, "train_loop", true, {}});
  Train.LoopCalls["u:matsum"].push_back(HotCallSite{"train.cu", 30, 5, "train.cu", 20, 1, "train_loop", true, {}});
  ProjectSummaries P;
  for (FileSummary *F : {&Lib, &Eval, &Train})
    P.add(*F);
  P.resolve();
  ASSERT_TRUE(P.hotCaller("u:matsum", "matrix.cu"));
  EXPECT_EQ(P.hotCaller("u:matsum", "matrix.cu")->Caller, "train_loop");
  EXPECT_EQ(P.loopCaller("u:matsum", "matrix.cu")->Caller, "train_loop");
  EXPECT_EQ(P.hotCaller("u:matsum", "train.cu")->Caller, "get_val_stats") << "the only other caller";

  Train.HotCalls["u:matsum"][0].Training = false;
  Train.LoopCalls["u:matsum"][0].Training = false;
  P.add(Train);
  P.resolve();
  EXPECT_EQ(P.hotCaller("u:matsum", "matrix.cu")->Caller, "get_val_stats") << "no training caller: the first one";
}

TEST(AnalysisSummaries, DependenciesListWhatAFileReadsOfTheOthers) {
  FileSummary Lib, Main;
  Lib.File = "lib.cc";
  Lib.Functions["u:f"] = facts("f", "lib.cc", 1);
  Lib.Functions["u:f"].ReachesStep = true;
  Main.File = "main.cc";
  Main.Uses = {"u:f", "u:missing"};
  Main.HotCalls["u:f"].push_back(HotCallSite{"main.cc", 5, 3, "main.cc", 4, 1, "train", true, {1}});
  Main.GradOffCalls["u:f"] = true;
  Main.UsesDevice = true;
  ProjectSummaries P;
  P.add(Lib);
  P.add(Main);
  P.resolve();
  EXPECT_EQ(P.dependencies(Main), "calls\x1fu:f\x1f"
                                  "f\x1flib.cc:1\x1f"
                                  "01000\x1f\x1f"
                                  "0\x1fread-only\n"); // no returned handle, not returning host tensors, no
                                                       // released parameter, none only read through
  EXPECT_EQ(P.dependencies(Lib), "called\x1fu:f\x1fmain.cc:5:3\x1fmain.cc:4:1\x1ftrain\x1f"
                                 "1\x1f\n"
                                 "same-arg\x1fu:f\x1f"
                                 "1\n"
                                 "grad-off\x1fu:f\n"
                                 "used\x1fu:f\n"
                                 "device\n");
  // Once every call on a step needs f's device work finished right after it,
  // a wait f ends with is no cost: lib.cc's findings depend on that.
  Main.HotCalls["u:f"][0].WaitsAfter = true;
  ProjectSummaries Waiting;
  Waiting.add(Lib);
  Waiting.add(Main);
  Waiting.resolve();
  EXPECT_EQ(Waiting.hotCallsWaitAfter("u:f", "lib.cc"), std::optional<bool>(true));
  EXPECT_EQ(Waiting.hotCallsWaitAfter("u:f", "main.cc"), std::nullopt) << "no call from another file";
  EXPECT_NE(Waiting.dependencies(Lib).find("waits-after\x1fu:f\n"), std::string::npos);
}

/// draw.cc defines `draw(img, boxes)`; main.cc and tool.cc call it. Its
/// boxes are host tensors when every other file's calls pass host tensors.
TEST(AnalysisSummaries, AParameterIsOnTheHostWhenEveryOtherFilePassesAHostTensor) {
  FileSummary Draw, Main, Tool;
  Draw.File = "draw.cc";
  Draw.Functions["u:draw"] = facts("draw", "draw.cc", 1);
  Main.File = "main.cc";
  Main.Uses = {"u:draw"};
  Main.HostArgs["u:draw"] = {{1, true}};
  Tool.File = "tool.cc";
  Tool.Uses = {"u:draw"};
  Tool.HostArgs["u:draw"] = {{1, true}};
  ProjectSummaries P;
  for (FileSummary *F : {&Draw, &Main, &Tool})
    P.add(*F);
  P.resolve();
  EXPECT_TRUE(P.hostArgument("u:draw", "draw.cc", 1));
  EXPECT_FALSE(P.hostArgument("u:draw", "draw.cc", 0)) << "nothing recorded for the image";
  EXPECT_FALSE(P.hostArgument("u:other", "draw.cc", 1)) << "never called";
  EXPECT_EQ(P.dependencies(Draw), "used\x1fu:draw\n"
                                  "host-arg\x1fu:draw\x1fmain.cc\x1f"
                                  "1\x1f"
                                  "1\n"
                                  "host-arg\x1fu:draw\x1ftool.cc\x1f"
                                  "1\x1f"
                                  "1\n");

  Tool.HostArgs["u:draw"][1] = false;
  P.add(Tool);
  P.resolve();
  EXPECT_FALSE(P.hostArgument("u:draw", "draw.cc", 1)) << "tool.cc passes a device tensor";
  EXPECT_TRUE(P.hostArgument("u:draw", "tool.cc", 1)) << "a file's own calls do not count";
  Tool.HostArgs.clear();
  P.add(Tool);
  P.resolve();
  EXPECT_FALSE(P.hostArgument("u:draw", "draw.cc", 1)) << "a caller that recorded nothing";
}

/// detector.cc uses a class that declares `video`; no file defines it until
/// video.cc does. What detector.cc's analysis read of that is a dependency.
TEST(AnalysisSummaries, WhetherAnyFileDefinesAMethodIsAFactOfTheProgram) {
  FileSummary Detector, Main, Video;
  Detector.File = "detector.cc";
  Detector.Functions["u:run"] = facts("run", "detector.cc", 3);
  Detector.Undefined = {"u:video"};
  Main.File = "main.cc";
  Main.Functions["u:main"] = facts("main", "main.cc", 1);
  ProjectSummaries P;
  P.add(Detector);
  P.add(Main);
  P.resolve();
  EXPECT_TRUE(P.hasMain());
  EXPECT_TRUE(P.defines("u:run", "main.cc"));
  EXPECT_FALSE(P.defines("u:video", "detector.cc"));
  EXPECT_EQ(P.dependencies(Detector), "defined\x1fu:video\x1f"
                                      "0\n");
  Video.File = "video.cc";
  Video.Functions["u:video"] = facts("video", "video.cc", 2);
  P.add(Video);
  P.resolve();
  EXPECT_TRUE(P.defines("u:video", "detector.cc"));
  EXPECT_EQ(P.dependencies(Detector), "defined\x1fu:video\x1f"
                                      "1\n");
}

/// Two lessons, each a program with a main, define `step` (the same USR);
/// lib/ is shared code; tools/ holds two mains that share common.cc.
TEST(AnalysisSummaries, ProgramsSeeOnlyTheirOwnFiles) {
  auto File = [](const std::string &Name) {
    FileSummary S;
    S.File = Name;
    return S;
  };
  FileSummary M1 = File("/r/l1/main.cc"), T1 = File("/r/l1/sub/train.cc"), M2 = File("/r/l2/main.cc"),
              T2 = File("/r/l2/train.cc"), Lib = File("/r/lib/util.cc"), A = File("/r/tools/a.cc"),
              B = File("/r/tools/b.cc"), Common = File("/r/tools/common.cc");
  M1.Functions["u:main"] = facts("main", M1.File, 1, {"u:step"});
  M2.Functions["u:main"] = facts("main", M2.File, 1, {"u:step"});
  T1.Functions["u:step"] = facts("step", T1.File, 3, {"u:util"});
  T2.Functions["u:step"] = facts("step", T2.File, 4);
  T2.Functions["u:step"].StepsDirectly = T2.Functions["u:step"].ReachesStep = true;
  Lib.Functions["u:util"] = facts("util", Lib.File, 5);
  Lib.Functions["u:util"].Trains = true;
  M1.HotCalls["u:step"].push_back(HotCallSite{M1.File, 6, 5, M1.File, 5, 3, "main", true, {0}});
  M2.HotCalls["u:step"].push_back(HotCallSite{M2.File, 7, 5, M2.File, 6, 3, "main", false, {}});
  M2.UsesDevice = true;
  A.Functions["u:main"] = facts("main", A.File, 1);
  A.Functions["u:helper"] = facts("helper", A.File, 2);
  B.Functions["u:main"] = facts("main", B.File, 1);
  B.Functions["u:helper"] = facts("helper", B.File, 9);
  ProjectSummaries P;
  for (FileSummary *F : {&M1, &T1, &M2, &T2, &Lib, &A, &B, &Common})
    P.add(*F);
  P.resolve();

  ASSERT_TRUE(P.function("u:step", M1.File));
  EXPECT_EQ(P.function("u:step", M1.File)->File, T1.File);
  EXPECT_TRUE(P.function("u:step", M1.File)->Trains) << "through the shared util";
  ASSERT_TRUE(P.function("u:step", M2.File));
  EXPECT_EQ(P.function("u:step", M2.File)->File, T2.File);
  EXPECT_FALSE(P.function("u:step")) << "the whole project has two";
  EXPECT_FALSE(P.function("u:step", Lib.File)) << "shared code sees both programs";
  EXPECT_EQ(P.hotCaller("u:step", T1.File)->File, M1.File);
  EXPECT_EQ(P.hotCaller("u:step", T2.File)->File, M2.File);
  EXPECT_TRUE(P.passesSameValue("u:step", T1.File, 0)) << "lesson2's call does not count";
  EXPECT_FALSE(P.anyUsesDevice(T1.File)) << "only lesson2 sends tensors to a device";
  EXPECT_TRUE(P.anyUsesDevice(T2.File));
  EXPECT_TRUE(P.anyUsesDevice(Lib.File));
  // Two mains in one directory are two programs; the directory's other files belong to both.
  EXPECT_EQ(P.function("u:helper", A.File)->Line, 2u);
  EXPECT_EQ(P.function("u:helper", B.File)->Line, 9u);
  EXPECT_FALSE(P.function("u:helper", Common.File));

  // What lesson1's trainer reads does not change with lesson2.
  std::string Before = P.dependencies(T1);
  EXPECT_NE(Before.find("called\x1fu:step\x1f/r/l1/main.cc:6:5"), std::string::npos) << Before;
  M2.HotCalls["u:step"][0].Line = 70;
  M2.Functions["u:main"].Trains = true;
  P.add(M2);
  P.resolve();
  EXPECT_EQ(P.dependencies(T1), Before);
}

/// A library's source with an empty `main` (so that it also builds as an
/// executable) is not a program of its own: the program whose `main` calls
/// into it sees its functions.
TEST(AnalysisSummaries, AnEmptyMainDoesNotMakeAProgram) {
  Snippet Lib(R"cc(
#include <cuda_runtime_api.h>
void infer() { cudaLaunchKernel(nullptr, dim3(1), dim3(1), nullptr, 0, nullptr); }
int main() { return 0; }
)cc");
  ASSERT_TRUE(Lib.ok());
  FileSummary L = summarize(Lib.analysis(), "/r/lib/src/forward.cc");
  EXPECT_FALSE(L.Functions.count(usrOf(Lib.function("main")))) << "the stub is left out";
  Snippet Real(R"cc(
void infer();
int main() { infer(); return 1; }
)cc");
  ASSERT_TRUE(Real.ok());
  FileSummary M = summarize(Real.analysis(), "/r/src/main.cc");
  EXPECT_TRUE(M.Functions.count(usrOf(Real.function("main")))) << "a main that does something is kept";
  ProjectSummaries P;
  P.add(L);
  P.add(M);
  P.resolve();
  EXPECT_TRUE(P.function(usrOf(Lib.function("infer")), "/r/src/main.cc")) << "main.cc's program holds forward.cc";
}

TEST(AnalysisSummaries, HandleOwnershipCrossesFilesThroughTheSummaries) {
  // lib.cc: a helper returns device memory it allocates, another releases its parameter.
  Snippet Lib(R"cc(
#include <cuda_runtime_api.h>
float *device_buffer(size_t n) {
  float *p = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&p), n);
  return p;
}
void release(int tag, float *p) { cudaFree(p); }
void keep(float *p) {}
)cc");
  ASSERT_TRUE(Lib.ok());
  FileSummary L = summarize(Lib.analysis(), "lib.cc");
  const FunctionFacts &Buffer = L.Functions.at(usrOf(Lib.function("device_buffer")));
  EXPECT_EQ(Buffer.ReturnedAcquire, "cudaMalloc");
  EXPECT_TRUE(Buffer.ReleasedParams.empty());
  EXPECT_EQ(L.Functions.at(usrOf(Lib.function("release"))).ReleasedParams, std::vector<unsigned>{1});
  EXPECT_TRUE(L.Functions.at(usrOf(Lib.function("keep"))).ReleasedParams.empty());
  ProjectSummaries Built;
  Built.add(L);
  Built.resolve();
  // The facts survive the JSON form the linter stores between runs.
  llvm::Expected<ProjectSummaries> Back = ProjectSummaries::fromJson(Built.toJson(), "s.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  auto P = std::make_shared<ProjectSummaries>(std::move(*Back));
  ScopedSummaries Scope(P);
  Snippet Main(R"cc(
#include <cuda_runtime_api.h>
float *device_buffer(size_t n);
void release(int tag, float *p);
void keep(float *p);
void step(int steps) {
  for (int s = 0; s < steps; ++s) {
    float *x = device_buffer(64);
    cudaLaunchKernel(nullptr, dim3(1), dim3(1), nullptr, 0, nullptr);
    keep(x);
    release(0, x);
  }
}
)cc");
  ASSERT_TRUE(Main.ok());
  std::optional<Acquisition> Acq = acquisitionAt(Main.call("step", "device_buffer"), Main.analysis());
  ASSERT_TRUE(Acq);
  EXPECT_EQ(Acq->Via, "device_buffer");
  EXPECT_EQ(acquireEntryName(*Acq->Entry), "cudaMalloc");
  EXPECT_FALSE(Acq->handleArg()) << "the handle is the returned value";
  HandleRef X = acquiredHandleRef(Main.call("step", "device_buffer"), *Acq, Main.analysis());
  EXPECT_EQ(X.D, Main.var("x"));
  EXPECT_EQ(findReleaseOf(loopBody(Main.loop("step")), X, Main.analysis()), Main.call("step", "release"));
  EXPECT_FALSE(releasesArgument(Main.call("step", "keep"), 0, Main.analysis()));
  EXPECT_FALSE(releasesArgument(Main.call("step", "release"), 0, Main.analysis())) << "only the parameter it frees";
}

TEST(AnalysisSummaries, PageableMemoryCrossesFilesThroughFieldsAndArguments) {
  // base.cc: a base class's method stores malloc'd memory into a protected
  // field, and page-locked memory into another.
  const std::string Classes = R"cc(
#include <cuda_runtime_api.h>
#include <cstdlib>
class Model {
protected:
  void init(size_t n);
  float *host_out = nullptr;
  float *pinned_out = nullptr;
  float *dev_out = nullptr;
  cudaStream_t stream;
};
void copy_out(float *dst, const float *src, size_t n, cudaStream_t s);
)cc";
  Snippet Base(Classes + R"cc(
void Model::init(size_t n) {
  host_out = static_cast<float *>(malloc(n));
  cudaMallocHost(reinterpret_cast<void **>(&pinned_out), n);
  cudaMalloc(reinterpret_cast<void **>(&dev_out), n);
}
)cc");
  ASSERT_TRUE(Base.ok());
  FileSummary B = summarize(Base.analysis(), "base.cc");
  const std::string HostOut =
      usrOf(Base.nth<clang::FieldDecl>(clang::ast_matchers::fieldDecl(clang::ast_matchers::hasName("host_out"))));
  ASSERT_TRUE(B.PointerFields.count(HostOut));
  EXPECT_EQ(B.PointerFields.at(HostOut), "input.cc:16");
  for (const auto &[Usr, Origin] : B.PointerFields)
    EXPECT_TRUE(Usr == HostOut || Origin.empty()) << Usr << ": page-locked or device memory is no pageable memory";

  // detect.cc: a derived class passes both fields to another file's function.
  ProjectSummaries WithBase;
  WithBase.add(B);
  WithBase.resolve();
  FileSummary D;
  {
    ScopedSummaries Scope(std::make_shared<ProjectSummaries>(WithBase));
    Snippet Detect(Classes + R"cc(
class Yolo : public Model {
public:
  void post(size_t n) {
    copy_out(host_out, dev_out, n, stream);
    copy_out(pinned_out, dev_out, n, stream);
  }
};
void run(Yolo &y) { y.post(64); }
)cc");
    ASSERT_TRUE(Detect.ok());
    D = summarize(Detect.analysis(), "detect.cc");
  }
  ASSERT_EQ(D.PageableArgs.size(), 1u);
  const auto &Args = D.PageableArgs.begin()->second;
  ASSERT_EQ(Args.size(), 1u) << "the page-locked field is not pageable";
  EXPECT_EQ(Args.at(0), "input.cc:16, passed at input.cc:18");

  // kernels.cc: the copy into the parameter is into pageable memory, as the callers show.
  ProjectSummaries All = WithBase;
  All.add(D);
  All.resolve();
  llvm::Expected<ProjectSummaries> Back = ProjectSummaries::fromJson(All.toJson(), "s.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  ScopedSummaries Scope(std::make_shared<ProjectSummaries>(std::move(*Back)));
  Snippet Kernels(Classes + R"cc(
void copy_out(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, s);
}
void copy_in(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s);
}
)cc");
  ASSERT_TRUE(Kernels.ok());
  std::optional<PageableOrigin> O =
      pageablePointer(Kernels.call("copy_out", "cudaMemcpyAsync")->getArg(0), Kernels.analysis());
  ASSERT_TRUE(O);
  EXPECT_EQ(O->Elsewhere, "input.cc:16, passed at input.cc:18");
  EXPECT_FALSE(pageablePointer(Kernels.call("copy_in", "cudaMemcpyAsync")->getArg(1), Kernels.analysis()))
      << "nobody calls copy_in";
}

TEST(AnalysisSummaries, ABranchOnAParameterEveryFilePassesNullNeverRuns) {
  const std::string Decl = R"cc(
float loss(const float *logits, int n, const float *mask = nullptr);
)cc";
  auto Caller = [&](const std::string &Body, const std::string &File) {
    Snippet S(Decl + "float step(const float *x, const float *m) { " + Body + " }");
    EXPECT_TRUE(S.ok());
    return S.ok() ? summarize(S.analysis(), File) : FileSummary();
  };
  FileSummary Train = Caller("return loss(x, 4) + loss(x, 4, nullptr);", "train.cc");
  ASSERT_TRUE(Train.NullArgs.size() == 1 && Train.NullArgs.begin()->second.count(2));
  EXPECT_TRUE(Train.NullArgs.begin()->second.at(2));
  EXPECT_FALSE(Train.NullArgs.begin()->second.at(0));
  FileSummary Eval = Caller("return loss(x, 4, m);", "eval.cc");
  const std::string Defines = Decl + R"cc(
float loss(const float *logits, int n, const float *mask) {
  float valid = n;
  if (mask != nullptr)
    valid = mask[0];
  return logits[0] / valid;
}
)cc";
  for (bool WithEval : {false, true}) {
    ProjectSummaries P;
    P.add(Train);
    if (WithEval)
      P.add(Eval);
    P.resolve();
    ScopedSummaries Scope(std::make_shared<ProjectSummaries>(P));
    Snippet Loss(Defines);
    ASSERT_TRUE(Loss.ok());
    const auto *Read = Loss.nth<clang::ArraySubscriptExpr>(clang::ast_matchers::arraySubscriptExpr(
        clang::ast_matchers::hasBase(clang::ast_matchers::hasDescendant(clang::ast_matchers::declRefExpr(
            clang::ast_matchers::to(clang::ast_matchers::parmVarDecl(clang::ast_matchers::hasName("mask"))))))));
    ASSERT_TRUE(Read);
    EXPECT_EQ(Loss.analysis().neverRuns(Read), !WithEval)
        << (WithEval ? "eval.cc passes a mask" : "no call passes one");
  }
}

TEST(AnalysisSummaries, APointerPassedToAFunctionThatOnlyReadsThroughItIsUnchanged) {
  const std::string Decls = R"cc(
void scale(float *x, double *factor, int n);
void decay(double *lr);
void keep(double *lr);
void forward(float *x, double *factor, int n);
)cc";
  // lib.cc: scale writes x and reads factor; decay writes through lr; keep
  // stores it where a later call may write; forward passes factor to scale.
  Snippet Lib(Decls + R"cc(
double *kept = nullptr;
void scale(float *x, double *factor, int n) { for (int i = 0; i < n; ++i) x[i] *= static_cast<float>(*factor); }
void decay(double *lr) { *lr *= 0.9; }
void keep(double *lr) { kept = lr; }
void forward(float *x, double *factor, int n) { scale(x, factor, n); }
)cc");
  ASSERT_TRUE(Lib.ok());
  FileSummary S = summarize(Lib.analysis(), "lib.cc");
  std::map<std::string, std::vector<unsigned>> ReadOnly;
  for (const auto &[Usr, F] : S.Functions)
    ReadOnly[F.Name] = F.ReadOnlyParams;
  EXPECT_EQ(ReadOnly["scale"], std::vector<unsigned>{1});
  EXPECT_EQ(ReadOnly["decay"], std::vector<unsigned>{});
  EXPECT_EQ(ReadOnly["keep"], std::vector<unsigned>{});
  EXPECT_EQ(ReadOnly["forward"], std::vector<unsigned>{1});
  // train.cc, which only declares them: the learning rate a loop passes to
  // scale and forward is unchanged by the loop; passed to decay or keep, it may change.
  ProjectSummaries P;
  P.add(S);
  P.resolve();
  ScopedSummaries Scope(std::make_shared<ProjectSummaries>(P));
  for (const char *Call : {"scale(w, &rate, 4)", "forward(w, &rate, 4)", "decay(&rate)", "keep(&rate)"}) {
    Snippet Train(Decls + "void train(float *w) { double rate = 0.1; for (int s = 0; s < 9; ++s) { " + Call + "; } }");
    ASSERT_TRUE(Train.ok());
    const auto *Lr = Train.nth<clang::VarDecl>(clang::ast_matchers::varDecl(clang::ast_matchers::hasName("rate")));
    const auto *Loop = Train.nth<clang::ForStmt>(clang::ast_matchers::forStmt());
    ASSERT_TRUE(Lr && Loop);
    bool ReadsOnly = llvm::StringRef(Call).starts_with("scale") || llvm::StringRef(Call).starts_with("forward");
    EXPECT_EQ(isChangedIn(Lr, Loop->getBody()), !ReadsOnly) << Call;
  }
}

TEST(AnalysisSummaries, AHelpersAllocationChurnsWhereAnotherFileReleasesItEveryStep) {
  // lib.cc: a helper that returns device memory it allocates, and one that releases it.
  const char *LibCode = R"cc(
#include <cuda_runtime_api.h>
float *device_buffer(size_t n) {
  float *p = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&p), n);
  return p;
}
void release(float *p) { cudaFree(p); }
)cc";
  Snippet Lib(LibCode);
  ASSERT_TRUE(Lib.ok());
  FileSummary L = summarize(Lib.analysis(), "lib.cc");
  EXPECT_TRUE(L.ChurnCalls.empty()) << "nothing calls it in lib.cc";
  // main.cc calls it on every step and releases what it returns.
  auto First = std::make_shared<ProjectSummaries>();
  First->add(L);
  First->resolve();
  FileSummary M;
  {
    ScopedSummaries Scope(First);
    Snippet Main(R"cc(
#include <cuda_runtime_api.h>
float *device_buffer(size_t n);
void release(float *p);
void step(int steps) {
  for (int s = 0; s < steps; ++s) {
    float *x = device_buffer(64);
    cudaLaunchKernel(nullptr, dim3(1), dim3(1), nullptr, 0, nullptr);
    release(x);
  }
}
)cc");
    ASSERT_TRUE(Main.ok());
    const clang::CallExpr *Call = Main.call("step", "device_buffer");
    std::optional<Acquisition> Acq = acquisitionAt(Call, Main.analysis());
    ASSERT_TRUE(Acq);
    EXPECT_TRUE(acquiredInsideProject(Call, *Acq, Main.analysis())) << "lib.cc reports it, at its cudaMalloc";
    M = summarize(Main.analysis(), "main.cc");
  }
  ASSERT_EQ(M.ChurnCalls.size(), 1u);
  const std::vector<ChurnCall> &Calls = M.ChurnCalls.begin()->second;
  ASSERT_EQ(Calls.size(), 1u);
  // Lines of the snippet as parsed: after the stand-in's include.
  EXPECT_EQ(Calls[0].Site.Line, 8u);
  EXPECT_EQ(Calls[0].Site.LoopLine, 7u);
  EXPECT_EQ(Calls[0].Site.Caller, "step");
  EXPECT_EQ(Calls[0].Release, "release");
  EXPECT_EQ(Calls[0].ReleaseLine, 10u);
  EXPECT_FALSE(Calls[0].Request);
  // Back in lib.cc, through the stored form: the cudaMalloc churns at main.cc's call.
  ProjectSummaries Both;
  Both.add(L);
  Both.add(M);
  Both.resolve();
  EXPECT_NE(Both.dependencies(L).find("churn\x1f"), std::string::npos) << "a change of the call re-lints lib.cc";
  llvm::Expected<ProjectSummaries> Back = ProjectSummaries::fromJson(Both.toJson(), "s.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  ScopedSummaries Scope(std::make_shared<ProjectSummaries>(std::move(*Back)));
  Snippet Again(LibCode);
  ASSERT_TRUE(Again.ok());
  const clang::CallExpr *Malloc = Again.call("device_buffer", "cudaMalloc");
  std::optional<Acquisition> Api = acquisitionAt(Malloc, Again.analysis());
  ASSERT_TRUE(Api);
  EXPECT_FALSE(churnAt(Malloc, *Api, Again.analysis())) << "not released in the helper";
  std::vector<Churn> Sites = churnThroughCallers(Malloc, *Api, Again.analysis());
  ASSERT_EQ(Sites.size(), 1u);
  ASSERT_NE(Sites[0].External, nullptr);
  EXPECT_EQ(Sites[0].External->Site.Line, 8u);
  EXPECT_EQ(Sites[0].External->Release, "release");
}

TEST(AnalysisSummaries, CurrentSummariesAreWhatWasSetLast) {
  auto S = std::make_shared<ProjectSummaries>(threeFiles());
  {
    ScopedSummaries Scope(S);
    EXPECT_EQ(projectSummaries(), S);
    Snippet Code("void f() {}");
    ASSERT_TRUE(Code.ok());
    EXPECT_EQ(Code.analysis().project(), S.get()) << "an analysis reads them when it is built";
  }
  EXPECT_EQ(projectSummaries(), nullptr);
}

} // namespace
} // namespace mlperf::test
