// The in-process JIT (clang 19 -> LLVM IR -> ORC LLJIT) and the cpu backend's plumbing.
#ifdef MLPERF_RT_HAVE_CPU
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "codegen/codegen.h"
#include "fusion/fusion.h"
#include "jit/jit.h"
#include "options.h"
#include "test_util.h"

using rt::Node;
using rt::Shape;

namespace {

namespace opt = mlperf::rt::options;

// Sets the kernel cache for one test and restores the default.
struct KernelCacheMode {
  explicit KernelCacheMode(opt::KernelCache m) { opt::set_kernel_cache(m); }
  ~KernelCacheMode() { opt::set_kernel_cache(std::nullopt); }
};

TEST(Jit, CompilesCAndCachesBySource) {
  KernelCacheMode mode(opt::KernelCache::Process);
  std::string src =
      "void jit_test_axpy(float* y, const float* x, float a, long long n) { for (long long i = 0; i < n; ++i) y[i] += "
      "a * x[i]; }\n";
  auto r1 = mlperf::rt::jit::compile("", {{"jit_test_axpy", src}});
  ASSERT_EQ(r1.fns.size(), 1u);
  ASSERT_NE(r1.fns[0], nullptr);
  auto fn = reinterpret_cast<void (*)(float*, const float*, float, long long)>(r1.fns[0]);
  std::vector<float> x(37, 2.0f), y(37, 1.0f);
  fn(y.data(), x.data(), 0.5f, 37);
  EXPECT_EQ(y[36], 2.0f);
  auto r2 = mlperf::rt::jit::compile("", {{"jit_test_axpy", src}});
  EXPECT_EQ(r2.cached, 1);
  EXPECT_EQ(r2.compiled, 0);
  EXPECT_EQ(r2.fns[0], r1.fns[0]);
  std::string cpu = mlperf::rt::jit::target_cpu();
  EXPECT_FALSE(cpu.empty());
  EXPECT_NE(cpu, "native");
}

TEST(Jit, ErrorsCarryDiagnosticsAndSource) {
  try {
    mlperf::rt::jit::compile("", {{"jit_broken", "void jit_broken(void) { this is not C; }\n"}});
    FAIL() << "expected an error";
  } catch (const rt::Error& e) {
    std::string w = e.what();
    EXPECT_NE(w.find("error"), std::string::npos) << w;
    EXPECT_NE(w.find("jit_broken"), std::string::npos) << w;
  }
}

TEST(Jit, PerExecutableKernelsCompileEveryTimeAndLiveWithTheirResult) {
  std::string src = "int jit_test_twice(int x) { return 2 * x; }\n";
  auto r1 = mlperf::rt::jit::compile("", {{"jit_test_twice", src}, {"jit_test_twice", src}});
  EXPECT_EQ(r1.compiled, 2);
  EXPECT_EQ(r1.fns[0], r1.fns[1]);  // one definition per translation unit
  auto r2 = mlperf::rt::jit::compile("", {{"jit_test_twice", src}});
  EXPECT_EQ(r2.compiled, 1);
  EXPECT_EQ(r2.cached, 0);
  EXPECT_GT(r2.seconds, 0.0);
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(r2.fns[0])(21), 42);
  r1.module.reset();  // frees r1's kernels; r2's stay callable
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(r2.fns[0])(4), 8);
}

TEST(Jit, SameGraphInANewExecCompilesAgainByDefault) {
  auto b = rt::Backend::create("cpu");
  auto fn = [](rt::Graph&, Node x) { return rt::sigmoid(x * 3.5 - 0.25); };
  auto x = upload(b, random_floats(100, 1), Shape{100});
  rt::Exec e1(b, fn), e2(b, fn);
  e1.run(x)[0].materialize<float>();
  auto before = b->stats_json()["backend_stats"];
  e2.run(x)[0].materialize<float>();
  auto after = b->stats_json()["backend_stats"];
  EXPECT_GT(after["jit_kernels_compiled"].get<int64_t>(), before["jit_kernels_compiled"].get<int64_t>());
  EXPECT_EQ(after["jit_kernels_cached"], before["jit_kernels_cached"]);
}

TEST(Jit, KernelCacheModeComesFromTheEnvironment) {
  EXPECT_EQ(opt::kernel_cache(), opt::KernelCache::Executable);
  setenv("MLPERF_KERNEL_CACHE", "process", 1);
  EXPECT_EQ(opt::kernel_cache(), opt::KernelCache::Process);
  {
    KernelCacheMode mode(opt::KernelCache::Executable);  // an explicit setting wins
    EXPECT_EQ(opt::kernel_cache(), opt::KernelCache::Executable);
  }
  setenv("MLPERF_KERNEL_CACHE", "sometimes", 1);
  EXPECT_THROW(opt::kernel_cache(), rt::ArgumentError);
  unsetenv("MLPERF_KERNEL_CACHE");
}

TEST(Jit, SameGraphTwiceHitsTheProcessKernelCache) {
  KernelCacheMode mode(opt::KernelCache::Process);
  auto b = rt::Backend::create("cpu");
  auto fn = [](rt::Graph&, Node x) { return rt::sigmoid(x * 3.25 - 0.125); };
  auto x = upload(b, random_floats(100, 1), Shape{100});
  rt::Exec e1(b, fn), e2(b, fn);
  e1.run(x)[0].materialize<float>();
  auto before = b->stats_json()["backend_stats"];
  e2.run(x)[0].materialize<float>();
  auto after = b->stats_json()["backend_stats"];
  EXPECT_EQ(after["jit_kernels_compiled"], before["jit_kernels_compiled"]);
  EXPECT_GT(after["jit_kernels_cached"].get<int64_t>(), before["jit_kernels_cached"].get<int64_t>());
}

// A fresh persistent cache directory for one test; the setting is restored after it.
struct PersistentCache {
  std::string dir;
  PersistentCache() {
    char tmpl[] = "/tmp/mlperf_kcache_XXXXXX";
    dir = mkdtemp(tmpl);
    opt::set_kernel_cache_dir(dir);
  }
  ~PersistentCache() {
    opt::set_kernel_cache_dir(std::nullopt);
    std::filesystem::remove_all(dir);
  }
  std::vector<std::filesystem::path> entries() const {
    std::vector<std::filesystem::path> v;
    for (const auto& e : std::filesystem::directory_iterator(dir)) v.push_back(e.path());
    return v;
  }
};

int64_t disk_hits(const std::shared_ptr<rt::Backend>& b) {
  return b->stats_json()["backend_stats"]["jit_persistent_cache_hits"].get<int64_t>();
}

std::vector<float> run_fresh_exec(const std::shared_ptr<rt::Backend>& b, double k) {
  rt::Exec e(b, [k](rt::Graph&, Node x) { return rt::tanh(x * k) + rt::exp(x) * 0.5; });
  return e.run(upload(b, random_floats(1000, 3), Shape{10, 100}))[0].materialize<float>();
}

TEST(Jit, PersistentCacheStoresAnExecutableOnceAndLoadsItForTheNext) {
  PersistentCache cache;
  auto b = rt::Backend::create("cpu");
  std::vector<float> first = run_fresh_exec(b, 1.25);
  ASSERT_EQ(cache.entries().size(), 1u);
  EXPECT_EQ(cache.entries()[0].extension(), ".o");
  EXPECT_EQ(disk_hits(b), 0);
  std::vector<float> second = run_fresh_exec(b, 1.25);  // a new executable: its own JITDylib, from disk
  EXPECT_EQ(disk_hits(b), 1);
  EXPECT_EQ(second, first);
  EXPECT_EQ(b->stats().compilations, 2);  // the recompilation is still counted
  run_fresh_exec(b, 2.5);                 // another source, another entry
  EXPECT_EQ(cache.entries().size(), 2u);
  EXPECT_EQ(disk_hits(b), 1);
}

TEST(Jit, PersistentCacheRecompilesAnUnreadableEntryAndStoresItAgain) {
  PersistentCache cache;
  auto b = rt::Backend::create("cpu");
  std::vector<float> want = run_fresh_exec(b, 0.75);
  ASSERT_EQ(cache.entries().size(), 1u);
  for (const char* junk : {"not an object file", "mlperf-jit-object 1 0.01\ngarbage"}) {
    std::ofstream(cache.entries()[0], std::ios::binary | std::ios::trunc) << junk;
    int64_t hits = disk_hits(b);
    EXPECT_EQ(run_fresh_exec(b, 0.75), want);
    EXPECT_EQ(disk_hits(b), hits);  // compiled, not loaded
    EXPECT_EQ(run_fresh_exec(b, 0.75), want);
    EXPECT_EQ(disk_hits(b), hits + 1);  // stored again
  }
}

// A verified read: an entry whose object bytes changed after it was written (a torn write, a
// flipped bit) is dropped and compiled again, never loaded and run.
TEST(Jit, PersistentCacheDropsAnEntryWhoseBytesChangedAndCompilesAgain) {
  PersistentCache cache;
  auto b = rt::Backend::create("cpu");
  std::vector<float> want = run_fresh_exec(b, 0.875);
  ASSERT_EQ(cache.entries().size(), 1u);
  const auto entry = cache.entries()[0];
  std::string bytes;
  {
    std::ifstream in(entry, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (size_t at : {bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << damaged;
    const int64_t hits = disk_hits(b), compilations = b->stats().compilations;
    EXPECT_EQ(run_fresh_exec(b, 0.875), want);
    EXPECT_EQ(disk_hits(b), hits) << "byte " << at << ": a damaged entry was loaded";
    EXPECT_EQ(b->stats().compilations, compilations + 1);
    EXPECT_EQ(run_fresh_exec(b, 0.875), want);
    EXPECT_EQ(disk_hits(b), hits + 1) << "byte " << at << ": the entry was not stored again";
  }
}

// An intact entry that holds another module's object (a copied or misnamed file) does not define
// the kernels asked for: it is dropped and compiled, not loaded (its lookup would fail).
TEST(Jit, PersistentCacheDropsAnEntryThatDoesNotDefineItsKernels) {
  PersistentCache cache;
  auto b = rt::Backend::create("cpu");
  run_fresh_exec(b, 1.75);
  ASSERT_EQ(cache.entries().size(), 1u);
  const auto other = cache.entries()[0];
  std::vector<float> want = run_fresh_exec(b, 3.25);
  ASSERT_EQ(cache.entries().size(), 2u);
  const auto entry = cache.entries()[0] == other ? cache.entries()[1] : cache.entries()[0];
  std::filesystem::copy_file(other, entry, std::filesystem::copy_options::overwrite_existing);
  const int64_t hits = disk_hits(b);
  EXPECT_EQ(run_fresh_exec(b, 3.25), want);
  EXPECT_EQ(disk_hits(b), hits);
  EXPECT_EQ(run_fresh_exec(b, 3.25), want);  // stored again, loaded now
  EXPECT_EQ(disk_hits(b), hits + 1);
}

TEST(Jit, PersistentCacheThatCannotBeWrittenOnlyCostsTheCompile) {
  char tmpl[] = "/tmp/mlperf_kcache_file_XXXXXX";
  int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  opt::set_kernel_cache_dir(std::string(tmpl) + "/sub");  // under a regular file
  auto b = rt::Backend::create("cpu");
  std::vector<float> a = run_fresh_exec(b, 1.5), c = run_fresh_exec(b, 1.5);
  opt::set_kernel_cache_dir(std::nullopt);
  std::filesystem::remove(tmpl);
  EXPECT_EQ(a, c);
  EXPECT_EQ(disk_hits(b), 0);
}

TEST(Jit, PersistentCacheDirectoryComesFromTheEnvironment) {
  EXPECT_EQ(opt::kernel_cache_dir(), "");
  setenv("MLPERF_KERNEL_CACHE_DIR", "/tmp/somewhere", 1);
  EXPECT_EQ(opt::kernel_cache_dir(), "/tmp/somewhere");
  unsetenv("MLPERF_KERNEL_CACHE_DIR");
}

TEST(Jit, SteadyStateTrainingStepAllocatesNoHostMemory) {
  auto b = rt::Backend::create("cpu");
  MlpAdamStep step(b, /*batch=*/64, /*hidden=*/32, /*init_seed=*/3, /*data_seed=*/5);
  auto host_allocs = [&] { return b->stats_json()["backend_stats"]["host_allocations"].get<int64_t>(); };
  for (int i = 0; i < 3; ++i) step.run();
  const int64_t before = host_allocs(), device_before = b->stats().allocations;
  float first = 0, last = 0;
  for (int i = 0; i < 20; ++i) {
    last = step.run();
    if (i == 0) first = last;
  }
  EXPECT_EQ(host_allocs(), before) << "a steady-state step allocated host memory for device buffers";
  EXPECT_GT(b->stats().allocations, device_before);  // its buffers are allocated, from freed ones
  EXPECT_LT(last, first);                            // and it trains
}

TEST(Jit, DumpPrintsFusedGraphSourceAndCompileTime) {
  setenv("MLPERF_DUMP", "fusion,source,compile", 1);
  auto b = rt::Backend::create("cpu");
  testing::internal::CaptureStderr();
  rt::Exec e(b, [](rt::Graph&, Node x) { return rt::reduce_sum(rt::exp(x * 0.75 + 0.0625), {1}); });
  e.run(upload(b, random_floats(12, 2), Shape{3, 4}))[0].materialize<float>();
  std::string err = testing::internal::GetCapturedStderr();
  unsetenv("MLPERF_DUMP");
  EXPECT_NE(err.find("fused program"), std::string::npos) << err;
  EXPECT_NE(err.find("reduce over [3]"), std::string::npos) << err;
  EXPECT_NE(err.find("for (i64 r = 0; r < 4; ++r)"), std::string::npos) << err;
  EXPECT_NE(err.find("compile:"), std::string::npos) << err;
  EXPECT_NE(err.find("machine code"), std::string::npos) << err;
  EXPECT_NE(err.find("ORC link"), std::string::npos) << err;
  EXPECT_NE(err.find("1 modules on 1 threads"), std::string::npos) << err;  // one kernel: one module
  EXPECT_NE(err.find("module 0: 1 kernels"), std::string::npos) << err;
  EXPECT_NE(err.find(" ms, CPU "), std::string::npos) << err;
}

TEST(Jit, ThreadCountsOutsideOneToTheLimitAreArgumentErrors) {
  for (const char* threads : {"100000", "0", "-3", "four", "4x", "99999999999999999999"}) {
    setenv("MLPERF_CPU_THREADS", threads, 1);
    std::string what;
    try {
      rt::Backend::create("cpu");
    } catch (const rt::ArgumentError& e) {
      what = e.what();
    }
    unsetenv("MLPERF_CPU_THREADS");
    EXPECT_NE(what.find(std::string("MLPERF_CPU_THREADS: '") + threads + "' is not a thread count from 1 to "),
              std::string::npos)
        << threads << ": " << what;
  }
  setenv("MLPERF_CPU_THREADS", "256", 1);
  auto cpu = rt::Backend::create("cpu");
  unsetenv("MLPERF_CPU_THREADS");
  EXPECT_EQ(cpu->stats_json()["backend_stats"]["threads"], 256);
}

TEST(Jit, ThreadCountsThatDoNotDivideTheWork) {
  for (const char* threads : {"1", "3", "4"}) {
    setenv("MLPERF_CPU_THREADS", threads, 1);
    auto cpu = rt::Backend::create("cpu");
    unsetenv("MLPERF_CPU_THREADS");
    EXPECT_EQ(cpu->stats_json()["backend_stats"]["threads"], std::atoi(threads));
    auto ref = rt::Backend::create("reference");
    auto host = random_floats(200003, 9);
    auto run = [&](const std::shared_ptr<rt::Backend>& b) {
      rt::Exec e(b, [](rt::Graph&, Node x) -> std::vector<Node> {
        Node m = rt::reshape(x, Shape{200003, 1}) * 2.0;
        return {rt::tanh(x) + 1.0, rt::reduce_sum(m, {1})};
      });
      auto o = e.run(upload(b, host, Shape{200003}));
      return std::make_pair(o[0].materialize<float>(), o[1].materialize<float>());
    };
    auto a = run(cpu), r = run(ref);
    for (size_t i = 0; i < a.first.size(); ++i) {
      ASSERT_NEAR(a.first[i], r.first[i], 1e-6) << i;
      ASSERT_EQ(a.second[i], r.second[i]) << i;
    }
  }
}

// Kernels with little work compile without optimization (RT_SMALL), the others at -O3; both
// compute the same values.
TEST(Jit, SmallKernelsCompileUnoptimizedAndAgreeWithOptimizedOnes) {
  namespace cg = mlperf::rt::codegen;
  auto source_for = [](int64_t n) {
    rt::Graph g;
    Node x = g.parameter(Shape{n}, rt::DType::F32);
    g.set_outputs({rt::tanh(x * 1.5) + rt::exp(x)});
    auto p = mlperf::rt::fusion::plan(g);
    return cg::generate(p, 0, cg::Target::CPU).source;
  };
  EXPECT_EQ(source_for(100).rfind("RT_SMALL ", 0), 0u);
  EXPECT_EQ(source_for(1 << 16).find("RT_SMALL"), std::string::npos);
  EXPECT_EQ(source_for(100).find("RT_SMALL", 1), std::string::npos);
  auto b = rt::Backend::create("cpu");
  const std::vector<float> xs = random_floats(1 << 16, 9);
  auto run = [&](int64_t n) {
    rt::Exec e(b, [](rt::Graph&, Node x) { return rt::tanh(x * 1.5) + rt::exp(x); });
    std::vector<float> part(xs.begin(), xs.begin() + n);
    return e.run(upload(b, part, Shape{n}))[0].materialize<float>();
  };
  std::vector<float> small = run(100), large = run(1 << 16);
  for (size_t i = 0; i < small.size(); ++i) EXPECT_NEAR(small[i], large[i], 1e-6f * (1 + std::fabs(large[i]))) << i;
}

TEST(Fusion, AdamUpdateOfOneVariableIsOneKernel) {
  rt::Graph g;
  rt::Context* none = nullptr;
  (void)none;
  Node w = g.parameter(Shape{64, 32}, rt::DType::F32), m = g.parameter(Shape{64, 32}, rt::DType::F32),
       v = g.parameter(Shape{64, 32}, rt::DType::F32), grad = g.parameter(Shape{64, 32}, rt::DType::F32);
  Node m2 = m * 0.9 + grad * 0.1;
  Node v2 = v * 0.999 + rt::square(grad) * 0.001;
  Node w2 = w - m2 * 1e-3 / (rt::sqrt(v2) + 1e-8);
  g.set_outputs({m2, v2, w2});
  auto p = mlperf::rt::fusion::plan(g);
  ASSERT_EQ(p.kernels.size(), 1u) << p.to_string();
  EXPECT_EQ(p.kernels[0].roots.size(), 3u);
  EXPECT_EQ(p.kernels[0].loads.size(), 4u);
}

}  // namespace
#endif  // MLPERF_RT_HAVE_CPU
