// Unit tests of checks/analysis on small ASTs: API profiles (loading,
// validation errors, matching) and the model analysis (what runs every step).
#include "Embedded.h"
#include "analysis/ApiProfile.h"
#include "analysis/Invariance.h"
#include "analysis/ModelAnalysis.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace mlperf::test {
namespace {
using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::mlperf;

/// The error of loading \p Json as a profile named "my.json", or "".
std::string loadError(const std::string &Json) {
  ApiProfiles P;
  llvm::Error E = P.addJson(Json, "my.json");
  return E ? llvm::toString(std::move(E)) : "";
}

std::string entry(const std::string &Body) { return R"({"name": "t", "entries": [)" + Body + "]}"; }

TEST(ApiProfilesTest, BuiltinProfilesAreValid) {
  ASSERT_FALSE(embeddedProfiles().empty());
  for (const EmbeddedFile &F : embeddedProfiles()) {
    ApiProfiles P;
    EXPECT_EQ(llvm::toString(P.addJson(F.Text, F.Name)), "") << F.Name;
  }
}

TEST(ApiProfilesTest, ErrorsNameFileEntryAndField) {
  struct Case {
    std::string Json, Want;
  } Cases[] = {
      {R"({"name": "t", "device_markers": "kCUDA", "entries": []})",
       "my.json: invalid API profile: 'device_markers' must be an object with 'declarations', 'types', 'calls', "
       "not \"kCUDA\""},
      {entry(R"({"role": "to-device", "callee": "f", "device_arg": -1})"),
       "my.json: invalid API profile: entry 0 (role 'to-device', callee 'f'): 'device_arg' must be an argument "
       "index from 0 to 7, not -1"},
      {entry(R"({"role": "sync", "callee": "g"}, {"role": "to-device", "callee": "f", "device_arg": 9})"),
       "entry 1 (role 'to-device', callee 'f'): 'device_arg' must be an argument index from 0 to 7, not 9"},
      {entry(R"({"role": "construct", "kind": "optimiser", "callee": "f"})"),
       "'kind' of role 'construct' must be one of \"module\", \"optimizer\", \"executable\", \"data-loader\", not "
       "\"optimiser\""},
      {entry(R"({"role": "construct", "callee": "f"})"), "role 'construct' needs a 'kind'"},
      {entry(R"({"role": "materialise", "callee": "f"})"), "'role': unknown role \"materialise\""},
      {entry(R"({"role": "sync", "callee": "f", "shape_specialized": true})"),
       "'shape_specialized' does not apply to role 'sync'"},
      {entry(R"({"role": "step", "kind": "exec", "callee": "f", "shape_specialized": "yes"})"),
       "'shape_specialized' must be true or false, not \"yes\""},
      {entry(R"({"role": "sync", "callee": 3})"), "'callee' must be a string or a list of strings, not 3"},
      {entry(R"({"role": "sync"})"),
       "names no 'callee', 'method', 'constructs_derived_from', 'constructs', 'types' or 'kernel_launch'"},
      {entry(R"({"role": "to-device", "callee": "f", "device_arg": 0, "cpu_role": "layer"})"),
       "'cpu_role': \"layer\" is a fact, not a role a call can take"},
      {entry(R"({"role": "layer", "constructs": "L", "size_args": [0], "kernel_arg": 2})"),
       "'kernel_arg' needs 'kernel_rank' or 'kernel_rank_template_arg'"},
      {entry(R"({"role": "acquire", "callee": "alloc"})"), "role 'acquire' needs a 'pair'"},
      {entry(R"({"role": "acquire", "callee": "into", "pair": "f", "into_arg": 1})"), "'into_arg' or 'into_object'"},
      {entry(R"({"role": "acquire", "callee": "into", "raii": true, "into_arg": 1, "into_object": true})"),
       "(not both) names the object an 'acquire' allocates into"},
      {entry(R"({"role": "sync", "callee": "f", "into_object": true})"), "'into_object' does not apply to role 'sync'"},
      {entry(R"({"role": "acquire", "callee": "alloc", "pair": "f", "releases_object": true})"),
       "'releases_object' does not apply to role 'acquire'"},
      {entry(R"({"role": "release", "callee": "f", "releases_object": 1})"),
       "'releases_object' must be true or false, not 1"},
      {entry(R"({"role": "sync", "callee": "f", "waits_for": "shape"})"), "'waits_for' does not apply to role 'sync'"},
      {entry(R"({"role": "materialize", "callee": "f", "waits_for": "size", "message": "m"})"),
       "'waits_for' must be \"shape\" or \"error-check\", not \"size\""},
      {entry(R"({"role": "materialize", "callee": "f", "waits_for": "shape"})"), "'waits_for' needs a 'message'"},
      {entry(R"({"role": "materialize", "callee": "f", "param_type": {"index": 0, "type": []}})"),
       "'param_type.type' needs at least one type"},
      {entry(R"({"role": "materialize", "callee": "f", "param_type": {"index": 0, "type": "T", "nested": "yes"}})"),
       "'param_type.nested' must be true or false, not \"yes\""},
      {R"({"name": "t", "entries": [], "device_context": "sometimes"})",
       "'device_context' must be \"markers\" or \"always\", not \"sometimes\""},
      {R"({"name": "t", "entries": [], "devices": {"cpu": "kCPU"}})", "'devices': unknown key 'cpu'"},
      {R"({"name": "t", "entries": [ {"role": "sync", "callee": "f"} )",
       "my.json: invalid API profile: not valid JSON"},
  };
  for (const Case &C : Cases) {
    std::string Error = loadError(C.Json);
    EXPECT_NE(Error.find(C.Want), std::string::npos) << "profile: " << C.Json << "\nerror: " << Error;
    EXPECT_EQ(Error.find("[json.exception"), std::string::npos) << Error;
  }
  EXPECT_EQ(loadError(entry(R"({"role": "sync", "callee": "f"})")), "");
}

const char *FrameworkProfile = R"({
  "name": "fw", "device_context": "always",
  "devices": {"device_kind_types": ["fw::DeviceType"], "cpu_names": ["kCPU"], "accelerator_names": ["k*"]},
  "entries": [
    {"role": "materialize", "callee": "fw::Tensor::item"},
    {"role": "to-device", "callee": "fw::Tensor::to", "device_arg": 0, "cpu_role": "materialize"},
    {"role": "step", "kind": "exec", "callee": "fw::Exec::run", "shape_specialized": true},
    {"role": "construct", "kind": "executable", "constructs_derived_from": "fw::Exec"},
    {"role": "construct", "kind": "data-loader", "constructs_derived_from": "fw::Loader"},
    {"role": "batch-size", "constructs": "fw::Loader", "size_arg": 0},
    {"role": "single-pass", "types": "fw::Prefetch"}
  ]})";

const char *Program = R"cc(
namespace fw {
enum class DeviceType { CPU, CUDA };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA;
struct Tensor { Tensor to(DeviceType d) const; float item() const; };
struct Exec { explicit Exec(int); Tensor run(Tensor) const; };
struct Loader { explicit Loader(int batch); };
struct Prefetch { explicit Prefetch(const Loader &); bool next(); };
Tensor zeros(int n);
}
float helper(const fw::Exec &e, fw::Tensor t) { return e.run(t).item(); }
float train(int steps) {
  fw::Exec exec(1);
  fw::Loader loader(100);
  fw::Tensor x = fw::zeros(3);
  float total = 0;
  for (int epoch = 0; epoch < 2; ++epoch) {
    fw::Prefetch batches(loader);
    for (int i = 0; i < steps; ++i) {
      fw::Tensor y = exec.run(x);
      total += y.item();
      if (i % 10 == 0)
        total += y.to(fw::kCPU).item();
      total += helper(exec, y.to(fw::kCUDA));
      total += batches.next() ? 1.f : 0.f;
    }
  }
  return total;
}
)cc";

class ModelAnalysisTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(llvm::toString(Profiles.addJson(FrameworkProfile, "fw.json")), "");
    AST = tooling::buildASTFromCodeWithArgs(Program, {"-std=c++17"});
    ASSERT_TRUE(AST);
    Analysis = std::make_unique<ModelAnalysis>(AST->getASTContext(), Profiles);
  }
  /// Calls of the method \p Name inside function \p Fn, in source order.
  std::vector<const CallExpr *> calls(const std::string &Fn, const std::string &Name) {
    std::vector<const CallExpr *> Out;
    for (const BoundNodes &N :
         match(callExpr(callee(functionDecl(hasName(Name))), hasAncestor(functionDecl(hasName(Fn)))).bind("c"),
               AST->getASTContext()))
      Out.push_back(N.getNodeAs<CallExpr>("c"));
    return Out;
  }
  template <class T> const T *first(const internal::BindableMatcher<Stmt> &M) {
    return selectFirst<T>("n", match(stmt(M).bind("n"), AST->getASTContext()));
  }
  ApiProfiles Profiles;
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ModelAnalysis> Analysis;
};

TEST_F(ModelAnalysisTest, ProfilesMatchRolesAndFacts) {
  std::vector<const CallExpr *> Items = calls("train", "item");
  ASSERT_EQ(Items.size(), 2u);
  ASSERT_TRUE(Profiles.match(Items[0]));
  EXPECT_EQ(Profiles.match(Items[0])->R, Role::Materialize);

  // The device argument decides the role of `to`: the CPU is a copy back to the host.
  std::vector<const CallExpr *> Tos = calls("train", "to");
  ASSERT_EQ(Tos.size(), 2u);
  EXPECT_EQ(Profiles.match(Tos[0])->R, Role::Materialize);
  EXPECT_EQ(Profiles.match(Tos[1])->R, Role::ToDevice);
  EXPECT_EQ(Profiles.classifyDeviceArg(Tos[0]->getArg(0)), DeviceKind::Cpu);
  EXPECT_EQ(Profiles.classifyDeviceArg(Tos[1]->getArg(0)), DeviceKind::Accelerator);

  // A loader's construction is a construct role and, besides, a batch-size fact.
  const auto *Loader = first<CXXConstructExpr>(cxxConstructExpr(hasType(cxxRecordDecl(hasName("fw::Loader")))));
  ASSERT_TRUE(Loader);
  ASSERT_TRUE(Profiles.match(Loader));
  EXPECT_EQ(Profiles.match(Loader)->R, Role::Construct);
  EXPECT_EQ(Profiles.match(Loader)->kind(), Kind::DataLoader);
  ASSERT_TRUE(Profiles.find(Loader, Role::BatchSize));
  EXPECT_EQ(*Profiles.find(Loader, Role::BatchSize)->SizeArg, 0u);
  EXPECT_FALSE(Profiles.find(Loader, Role::Layer));

  const auto *Batches = first<DeclStmt>(declStmt(has(varDecl(hasName("batches")))));
  ASSERT_TRUE(Batches);
  EXPECT_TRUE(Profiles.findType(cast<VarDecl>(Batches->getSingleDecl())->getType(), Role::SinglePass));
  EXPECT_FALSE(Profiles.findType(cast<VarDecl>(Batches->getSingleDecl())->getType(), Role::BackendChoice));
}

TEST_F(ModelAnalysisTest, PerStepFollowsLoopsGuardsAndHelpers) {
  std::vector<const CallExpr *> Items = calls("train", "item");
  ASSERT_EQ(Items.size(), 2u);
  std::optional<HotContext> Hot = Analysis->perStep(Items[0]);
  ASSERT_TRUE(Hot);
  EXPECT_TRUE(Hot->Loop);
  EXPECT_FALSE(Hot->Training);
  EXPECT_FALSE(Analysis->perStep(Items[1])) << "under `i % 10 == 0` it runs every tenth step";

  // In a helper called from the step loop: hot through the call chain.
  std::vector<const CallExpr *> HelperItems = calls("helper", "item");
  ASSERT_EQ(HelperItems.size(), 1u);
  std::optional<HotContext> Chain = Analysis->perStep(HelperItems[0]);
  ASSERT_TRUE(Chain);
  EXPECT_EQ(Chain->Loop, Hot->Loop) << "the caller's step loop";
  ASSERT_EQ(Chain->CallChain.size(), 1u);
  EXPECT_EQ(calls("train", "helper").front(), Chain->CallChain.front());

  // Before the loops, and in the epoch loop around the step loop: not per step.
  EXPECT_FALSE(Analysis->perStep(calls("train", "zeros").front()));
  const auto *Batches = first<DeclStmt>(declStmt(has(varDecl(hasName("batches")))));
  EXPECT_FALSE(Analysis->perStep(Batches));
  std::optional<HotContext> InModel = Analysis->inModelLoop(Batches);
  ASSERT_TRUE(InModel) << "the epoch loop runs the model at depth";
  EXPECT_EQ(Analysis->enclosingLoops(Batches).size(), 1u);
  EXPECT_EQ(Analysis->enclosingLoops(Items[0]).size(), 2u);
  EXPECT_EQ(Analysis->innermostLoop(Items[0]), Analysis->enclosingLoops(Items[0]).front());
}

TEST_F(ModelAnalysisTest, NoHoistMovesASinglePassObject) {
  // `batches.next()` reads a variable the step loop never assigns, but a
  // prefetcher yields something new every time (a single-pass fact of the
  // profiles), and `next()` is a non-const call that changes it anyway.
  std::vector<const CallExpr *> Next = calls("train", "next");
  ASSERT_EQ(Next.size(), 1u);
  std::vector<const Stmt *> Loops = Analysis->enclosingLoops(Next[0]);
  ASSERT_EQ(Loops.size(), 2u);
  EXPECT_EQ(outermostInvariantLoop(Next[0], Loops, Profiles), nullptr);
  ApiProfiles NoFacts;
  ASSERT_EQ(llvm::toString(NoFacts.addJson(entry(R"({"role": "sync", "callee": "f"})"), "n.json")), "");
  EXPECT_EQ(outermostInvariantLoop(Next[0], Loops, NoFacts), nullptr);
}

TEST_F(ModelAnalysisTest, DeviceAwareOnlyWhenAnAcceleratorIsNamed) {
  // "always" profiles make every call a device call; markers are what a
  // "markers" profile needs, and this one has none.
  EXPECT_FALSE(Analysis->deviceAware());
  ApiProfiles Marked;
  ASSERT_EQ(llvm::toString(Marked.addJson(
                R"({"name": "m", "device_markers": {"declarations": "fw::kCUDA"}, "entries": []})", "m.json")),
            "");
  EXPECT_TRUE(ModelAnalysis(AST->getASTContext(), Marked).deviceAware());
}

/// With a device model, naming an accelerator is not enough: a probe, a
/// device that is built and printed, or a move to another tensor's device
/// keeps the program on the CPU; a tensor sent to the accelerator does not.
TEST(DeviceAwareness, AnAcceleratorMustReachATensor) {
  ApiProfiles P;
  ASSERT_EQ(llvm::toString(P.addJson(R"({"name": "m",
      "device_markers": {"declarations": ["fw::kCUDA"], "calls": ["fw::has_gpu"]},
      "devices": {"device_kind_types": ["fw::DeviceType"], "cpu_names": ["kCPU"], "accelerator_names": ["kCUDA"],
                  "device_following_types": ["fw::Tensor"]},
      "entries": [{"role": "device-probe", "callee": "fw::has_gpu"},
                  {"role": "to-device", "callee": "fw::Tensor::to", "device_arg": 0}]})",
                                     "m.json")),
            "");
  const std::string Decls = R"cc(
namespace fw {
enum DeviceType { kCPU, kCUDA };
struct Tensor { Tensor to(DeviceType) const; Tensor to(const Tensor &) const; };
bool has_gpu();
}
)cc";
  auto Aware = [&](const std::string &Body) {
    auto AST = tooling::buildASTFromCodeWithArgs(Decls + Body, {"-std=c++17"});
    return AST && ModelAnalysis(AST->getASTContext(), P).deviceAware();
  };
  EXPECT_FALSE(
      Aware("void f(fw::Tensor t) { if (fw::has_gpu()) { fw::DeviceType d = fw::kCUDA; (void)(d == fw::kCUDA); } "
            "t.to(t); }"));
  EXPECT_TRUE(Aware("void f(fw::Tensor t) { if (fw::has_gpu()) t.to(fw::kCUDA); }"));
  EXPECT_TRUE(Aware("void f(fw::Tensor t) { fw::DeviceType d = fw::has_gpu() ? fw::kCUDA : fw::kCPU; t.to(d); }"));

  // A device variable is read where it is used: the values that reach the read.
  const std::string Probe = "void f(fw::Tensor t, bool x) { fw::DeviceType d = fw::kCPU;\n"
                            "  if (fw::has_gpu()) d = fw::kCUDA;\n";
  EXPECT_FALSE(Aware(Probe + "  d = fw::kCPU;\n  t.to(d); }")) << "the probe's choice is overridden";
  EXPECT_TRUE(Aware(Probe + "  t.to(d); }"));
  EXPECT_TRUE(Aware(Probe + "  d = fw::kCPU;\n  if (x) d = fw::kCUDA;\n  t.to(d); }")) << "a later branch may set it";
  EXPECT_TRUE(Aware(Probe + "  d = fw::kCPU;\n  for (int i = 0; i < 3; ++i) { t.to(d); d = fw::kCUDA; } }"))
      << "the next iteration reads what the loop assigned";
  EXPECT_FALSE(Aware("void f(fw::Tensor t) { fw::DeviceType d = fw::kCUDA;\n"
                     "  for (int i = 0; i < 3; ++i) { d = fw::kCPU; t.to(d); d = fw::kCUDA; } }"))
      << "each iteration sets it before the read";
  EXPECT_TRUE(Aware("void set(fw::DeviceType *); void f(fw::Tensor t) { fw::DeviceType d = fw::kCPU;\n"
                    "  if (fw::has_gpu()) set(&d);\n  t.to(d); }"))
      << "written through its address";
  EXPECT_TRUE(Aware("void f(fw::Tensor t) { fw::DeviceType d = fw::kCPU; auto g = [&] { d = fw::kCUDA; }; g(); "
                    "t.to(d); }"))
      << "written by a lambda";

  // A parameter holds what every call passes (default arguments included);
  // a function other translation units may call is not known without the project.
  EXPECT_FALSE(Aware("static void g(fw::Tensor t, fw::DeviceType d) { t.to(d); }\n"
                     "void f(fw::Tensor t) { fw::DeviceType d = fw::has_gpu() ? fw::kCUDA : fw::kCPU; d = fw::kCPU; "
                     "g(t, d); }"));
  EXPECT_FALSE(Aware("static void g(fw::Tensor t, fw::DeviceType d = fw::kCPU) { t.to(d); }\n"
                     "void f(fw::Tensor t) { g(t); }"));
  EXPECT_FALSE(Aware("static void g(fw::Tensor t, fw::DeviceType d) { t.to(d); }\n"
                     "static void h(fw::Tensor t, fw::DeviceType d) { g(t, d); }\n"
                     "void f(fw::Tensor t) { h(t, fw::kCPU); }"))
      << "through a chain of calls";
  EXPECT_TRUE(Aware("static void g(fw::Tensor t, fw::DeviceType d) { t.to(d); }\n"
                    "void f(fw::Tensor t) { g(t, fw::kCPU); g(t, fw::kCUDA); }"));
  EXPECT_TRUE(Aware("void g(fw::Tensor t, fw::DeviceType d) { t.to(d); }\n"
                    "void f(fw::Tensor t) { if (!fw::has_gpu()) g(t, fw::kCPU); }"))
      << "g has external linkage";
  EXPECT_TRUE(Aware("static void g(fw::Tensor t, fw::DeviceType d) { t.to(d); }\nbool f() { return fw::has_gpu(); }"))
      << "no call says what it gets";
}

} // namespace
} // namespace mlperf::test
