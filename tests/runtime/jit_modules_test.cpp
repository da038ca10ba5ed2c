// An executable's kernels compiled as several translation units at once (options::jit_modules,
// options::jit_threads): balanced by weight, linked into one JITDylib, same results as one module.
#ifdef MLPERF_RT_HAVE_CPU
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "jit/jit.h"
#include "options.h"
#include "test_util.h"

namespace {

namespace opt = mlperf::rt::options;
namespace jit = mlperf::rt::jit;

// Sets the module and thread counts for one test and restores the environment's.
struct JitSplit {
  JitSplit(int modules, int threads) {
    opt::set_jit_modules(modules);
    opt::set_jit_threads(threads);
  }
  ~JitSplit() {
    opt::set_jit_modules(std::nullopt);
    opt::set_jit_threads(std::nullopt);
  }
};

// n kernels "jit_mod_<tag>_<i>(x) = x * (i + 1)", the first with weight `first_weight`.
std::vector<jit::Source> scale_kernels(const std::string& tag, int n, double first_weight) {
  std::vector<jit::Source> v;
  for (int i = 0; i < n; ++i) {
    std::string name = "jit_mod_" + tag + "_" + std::to_string(i);
    v.push_back(
        {name, "int " + name + "(int x) { return x * " + std::to_string(i + 1) + "; }\n", i == 0 ? first_weight : 1.0});
  }
  return v;
}

TEST(JitModules, KernelsAreSplitIntoModulesCompiledOnThePoolAndLinkedTogether) {
  JitSplit split(2, 2);
  auto r = jit::compile("static int unused_helper(int x) { return x; }\n", scale_kernels("split", 6, 1.0));
  ASSERT_EQ(r.modules.size(), 2u);
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.modules[0].kernels + r.modules[1].kernels, 6);
  EXPECT_EQ(r.compiled, 6);
  for (const auto& m : r.modules) {
    EXPECT_GT(m.object_bytes, 0u);
    EXPECT_GT(m.frontend_seconds, 0.0);
    EXPECT_GT(m.codegen_seconds, 0.0);
    EXPECT_FALSE(m.from_disk);
  }
  for (int i = 0; i < 6; ++i) EXPECT_EQ(reinterpret_cast<int (*)(int)>(r.fns[static_cast<size_t>(i)])(7), 7 * (i + 1));
}

TEST(JitModules, OneModuleAndOneThreadIsASingleTranslationUnit) {
  JitSplit split(1, 1);
  auto r = jit::compile("", scale_kernels("single", 5, 1.0));
  ASSERT_EQ(r.modules.size(), 1u);
  EXPECT_EQ(r.threads, 1);
  EXPECT_EQ(r.modules[0].kernels, 5);
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(r.fns[4])(3), 15);
}

TEST(JitModules, MoreModulesThanKernelsGivesOneModulePerKernel) {
  JitSplit split(1000, 1);
  auto r = jit::compile("", scale_kernels("each", 4, 1.0));
  ASSERT_EQ(r.modules.size(), 4u);
  for (const auto& m : r.modules) EXPECT_EQ(m.kernels, 1);
}

TEST(JitModules, AHeavyKernelGetsAModuleOfItsOwn) {
  JitSplit split(2, 2);
  auto r = jit::compile("", scale_kernels("heavy", 8, 7.0));  // 7 against 7 x 1
  ASSERT_EQ(r.modules.size(), 2u);
  std::vector<int> sizes = {r.modules[0].kernels, r.modules[1].kernels};
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(sizes, (std::vector<int>{1, 7}));
}

TEST(JitModules, AnErrorInOneModuleIsReportedAndTheNextCompileWorks) {
  JitSplit split(3, 2);
  auto kernels = scale_kernels("broken", 5, 1.0);
  kernels[3].code = "int jit_mod_broken_3(int x) { this is not C; }\n";
  try {
    jit::compile("", kernels);
    FAIL() << "expected an error";
  } catch (const rt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("jit_mod_broken_3"), std::string::npos) << e.what();
  }
  auto r = jit::compile("", scale_kernels("after", 5, 1.0));
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(r.fns[2])(2), 6);
}

// A training step (matmuls, fused elementwise, reductions, Adam) gives bit-identical losses
// however its kernels are split.
std::vector<float> train_losses(int modules, int threads, int64_t* disk_hits = nullptr) {
  JitSplit split(modules, threads);
  auto b = rt::Backend::create("cpu");
  MlpAdamStep step(b, /*batch=*/128, /*hidden=*/64, /*init_seed=*/11, /*data_seed=*/8);
  std::vector<float> losses;
  for (int i = 0; i < 5; ++i) losses.push_back(step.run());
  EXPECT_EQ(b->stats().compilations, 1);
  if (disk_hits) *disk_hits = b->stats_json()["backend_stats"]["jit_persistent_cache_hits"].get<int64_t>();
  return losses;
}

TEST(JitModules, ATrainingStepComputesTheSameWhateverTheSplit) {
  std::vector<float> one = train_losses(1, 1);
  EXPECT_EQ(train_losses(2, 2), one);
  EXPECT_EQ(train_losses(1000, 2), one);
  EXPECT_LT(one.back(), one.front());
}

// Each module is its own persistent-cache entry; a new process (here: a new backend) loads all
// of them and still counts the executable as a compilation.
TEST(JitModules, EveryModuleIsStoredAndLoadedFromThePersistentCache) {
  char tmpl[] = "/tmp/mlperf_kcache_mod_XXXXXX";
  std::string dir = mkdtemp(tmpl);
  opt::set_kernel_cache_dir(dir);
  int64_t hits_first = -1, hits_again = -1;
  std::vector<float> first = train_losses(2, 2, &hits_first);
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries += e.path().extension() == ".o";
  std::vector<float> again = train_losses(2, 2, &hits_again);
  opt::set_kernel_cache_dir(std::nullopt);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(entries, 2u);
  EXPECT_EQ(hits_first, 0);
  EXPECT_EQ(hits_again, 2);
  EXPECT_EQ(again, first);
}

TEST(JitModules, CountsComeFromTheEnvironmentAndBadOnesAreArgumentErrors) {
  EXPECT_GE(opt::jit_threads(), 1);
  EXPECT_LE(opt::jit_threads(), 8);  // fewer on a busy machine
  setenv("MLPERF_JIT_THREADS", "3", 1);
  EXPECT_EQ(opt::jit_threads(), 3);
  EXPECT_EQ(opt::jit_modules(), 3);  // the split follows the threads
  setenv("MLPERF_JIT_MODULES", "40", 1);
  EXPECT_EQ(opt::jit_modules(), 40);
  for (const char* bad : {"0", "-1", "two", "2x", "100001"}) {
    setenv("MLPERF_JIT_MODULES", bad, 1);
    try {
      opt::jit_modules();
      ADD_FAILURE() << bad << " was accepted";
    } catch (const rt::ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("MLPERF_JIT_MODULES: '") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
  unsetenv("MLPERF_JIT_MODULES");
  setenv("MLPERF_JIT_THREADS", "257", 1);
  EXPECT_THROW(opt::jit_threads(), rt::ArgumentError);
  unsetenv("MLPERF_JIT_THREADS");
  EXPECT_GE(opt::jit_threads(), 1);
  EXPECT_LE(opt::jit_threads(), 8);
}

}  // namespace
#endif  // MLPERF_RT_HAVE_CPU
