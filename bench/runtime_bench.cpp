// Benchmarks of the fused runtime, each against a baseline measured in the same run.
//   ninja -C build-jit runtime_bench && build-jit/bench/runtime_bench
// A summary table with ratios and targets is printed at the end.
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "mlperf/rt/runtime.h"

#ifdef MLPERF_BENCH_HAVE_BLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
extern "C" char* openblas_get_corename();
#endif
#ifdef MLPERF_BENCH_HAVE_TORCH
void torch_mlp_setup(const float* x, const int64_t* y, int batch);
float torch_mlp_step();
#endif

namespace rt = mlperf::rt;
using rt::Node;
using rt::Shape;

namespace {

std::map<std::string, double> g_sec;  // median-ish seconds per iteration, by benchmark name

std::vector<float> randn(size_t n, uint64_t seed) {
  std::mt19937_64 r(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = d(r);
  return v;
}

void record(benchmark::State& st, const std::string& key, double secs_per_iter) {
  g_sec[key] = secs_per_iter;
  st.counters["ms"] = secs_per_iter * 1e3;
}

// ---- 1. fused elementwise chain vs memcpy (16M floats) ----
constexpr int64_t kN = 16 << 20;

void BM_Memcpy16M(benchmark::State& st) {
  std::vector<float> a = randn(kN, 1), b(kN);
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), kN * 4);
    benchmark::DoNotOptimize(b.data());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  record(st, "memcpy", total / st.iterations());
  st.counters["GB/s"] = 2.0 * kN * 4 / (total / st.iterations()) / 1e9;
}

void BM_FusedChain16M(benchmark::State& st) {
  auto b = rt::Backend::create("cpu");
  rt::Exec e(b, [](rt::Graph&, Node x) { return rt::relu(x * 1.5 + 0.25) * rt::sigmoid(x) - x * 0.5; });
  auto x = rt::Tensor::from_host(b, randn(kN, 2), Shape{kN});
  e.run(x)[0].finalize();
  b->synchronize();
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    auto y = e.run(x)[0];
    b->synchronize();
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    y.finalize();
  }
  record(st, "chain", total / st.iterations());
  st.counters["GB/s"] = 2.0 * kN * 4 / (total / st.iterations()) / 1e9;
  if (g_sec.count("memcpy")) st.counters["ratio_vs_memcpy"] = g_sec["memcpy"] / (total / st.iterations());
}

// ---- 2. JIT latency ----
void BM_JitOneKernel(benchmark::State& st) {
  auto b = rt::Backend::create("cpu");
  auto x = rt::Tensor::from_host(b, randn(1024, 3), Shape{1024});
  static int salt = 0;
  for (auto _ : st) {
    double c = 1.0 + (++salt) * 1e-6;  // a new constant: a new source, no cache hit
    rt::Exec e(b, [c](rt::Graph&, Node v) { return rt::tanh(v * c + 0.5) * rt::sigmoid(v); });
    double before = b->stats().compile_seconds;
    e.run(x)[0].materialize<float>();
    st.SetIterationTime(b->stats().compile_seconds - before);
  }
}

Node mlp(rt::Context& c, rt::Graph& g, Node x, const std::vector<int64_t>& sizes) {
  for (size_t i = 0; i + 1 < sizes.size(); ++i) {
    std::string n = "l" + std::to_string(i);
    x = rt::matmul(x, c.variable(g, n + "/w", Shape{sizes[i], sizes[i + 1]})) +
        c.variable(g, n + "/b", Shape{sizes[i + 1]}, rt::Initializer::zeros());
    if (i + 2 < sizes.size()) x = rt::relu(x);
  }
  return x;
}

struct Model {
  std::vector<int64_t> sizes;
  int64_t batch;
};
const Model kLarge{{784, 512, 512, 10}, 128};
const Model kTiny{{2, 16, 16, 4}, 32};

struct Trainer {
  std::shared_ptr<rt::Backend> b;
  std::unique_ptr<rt::Context> ctx;
  std::unique_ptr<rt::Adam> adam;
  std::unique_ptr<rt::Exec> step;
  rt::Tensor x, y;
  Trainer(std::shared_ptr<rt::Backend> be, const Model& m, double lr = 1e-3) : b(std::move(be)) {
    ctx = std::make_unique<rt::Context>(b, 1);
    adam = std::make_unique<rt::Adam>(lr);
    auto sizes = m.sizes;
    rt::Adam* a = adam.get();
    step = std::make_unique<rt::Exec>(b, *ctx, [sizes, a](rt::Context& c, rt::Graph& g, Node xx, Node yy) {
      Node loss = rt::reduce_mean(rt::softmax_cross_entropy(mlp(c, g, xx, sizes), yy));
      a->minimize(c, g, loss);
      return loss;
    });
    x = rt::Tensor::from_host(b, randn(static_cast<size_t>(m.batch * m.sizes[0]), 4), Shape{m.batch, m.sizes[0]});
    std::vector<int32_t> ys;
    for (int64_t i = 0; i < m.batch; ++i) ys.push_back(static_cast<int32_t>(i % m.sizes.back()));
    y = rt::Tensor::from_host(b, ys, Shape{m.batch});
  }
  float run() { return step->run(x, y)[0].materialize<float>()[0]; }
};

// Cold: no persistent kernel cache, and a new learning rate per iteration (new kernel sources).
// Arg 0: the defaults (modules: the hardware threads; threads: those the load leaves idle);
// arg 1: one module on one thread (the path before issue 29's split); arg 2: two modules on two
// threads whatever the load.
void BM_JitMlpTrainStep(benchmark::State& st) {
  unsetenv("MLPERF_KERNEL_CACHE_DIR");
  if (st.range(0) > 0) {
    setenv("MLPERF_JIT_MODULES", std::to_string(st.range(0)).c_str(), 1);
    setenv("MLPERF_JIT_THREADS", std::to_string(st.range(0)).c_str(), 1);
  }
  auto b = rt::Backend::create("cpu");
  static int salt = 0;
  for (auto _ : st) {
    Trainer t(b, kLarge, 1e-3 * (1.0 + (++salt) * 1e-6));  // a new learning rate: new kernel sources
    double before = b->stats().compile_seconds;
    t.run();
    st.SetIterationTime(b->stats().compile_seconds - before);
    st.counters["kernels"] = static_cast<double>(b->stats().kernel_launches);
  }
  unsetenv("MLPERF_JIT_MODULES");
  unsetenv("MLPERF_JIT_THREADS");
}

// Warm persistent cache: the graph was compiled once by an earlier executable (in a fresh
// directory); every iteration is a new executable, which loads its object code from disk.
void BM_JitMlpTrainStepWarmCache(benchmark::State& st) {
  char tmpl[] = "/tmp/mlperf_bench_kcache_XXXXXX";
  std::string dir = mkdtemp(tmpl);
  setenv("MLPERF_KERNEL_CACHE_DIR", dir.c_str(), 1);
  auto b = rt::Backend::create("cpu");
  Trainer(b, kLarge).run();  // stores the entry
  for (auto _ : st) {
    Trainer t(b, kLarge);
    double before = b->stats().compile_seconds;
    t.run();
    st.SetIterationTime(b->stats().compile_seconds - before);
  }
  st.counters["disk_hits"] = b->stats_json()["backend_stats"]["jit_persistent_cache_hits"].get<double>();
  unsetenv("MLPERF_KERNEL_CACHE_DIR");
  std::filesystem::remove_all(dir);
}

// ---- 3. MLP training step: cpu vs libtorch ----
void BM_TorchMlpStep(benchmark::State& st) {
#ifdef MLPERF_BENCH_HAVE_TORCH
  auto xs = randn(128 * 784, 4);
  std::vector<int64_t> ys;
  for (int i = 0; i < 128; ++i) ys.push_back(i % 10);
  torch_mlp_setup(xs.data(), ys.data(), 128);
  for (int i = 0; i < 3; ++i) torch_mlp_step();
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(torch_mlp_step());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  record(st, "torch_step", total / st.iterations());
#else
  st.SkipWithError("built without libtorch");
#endif
}

void BM_CpuMlpStep(benchmark::State& st) {
  setenv("MLPERF_CPU_THREADS", std::to_string(st.range(0)).c_str(), 1);
  auto b = rt::Backend::create("cpu");
  unsetenv("MLPERF_CPU_THREADS");
  Trainer t(b, kLarge);
  for (int i = 0; i < 3; ++i) t.run();
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(t.run());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  record(st, "cpu_step_t" + std::to_string(st.range(0)), total / st.iterations());
  if (g_sec.count("torch_step")) st.counters["speedup_vs_torch"] = g_sec["torch_step"] / (total / st.iterations());
}

// ---- 4. matmul 1024^3: runtime vs direct cblas_sgemm ----
void BM_Sgemm1024(benchmark::State& st) {
#ifdef MLPERF_BENCH_HAVE_BLAS
  auto a = randn(1 << 20, 5), b = randn(1 << 20, 6);
  std::vector<float> c(1 << 20);
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1024, 1024, 1024, 1.0f, a.data(), 1024, b.data(), 1024, 0.0f,
                c.data(), 1024);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  record(st, "sgemm", total / st.iterations());
  st.counters["GFLOP/s"] = 2.0 * 1024 * 1024 * 1024 / (total / st.iterations()) / 1e9;
#else
  st.SkipWithError("built without cblas");
#endif
}

void BM_RuntimeMatmul1024(benchmark::State& st) {
  auto b = rt::Backend::create("cpu");
  rt::Exec e(b, [](rt::Graph&, Node x, Node y) { return rt::matmul(x, y); });
  auto x = rt::Tensor::from_host(b, randn(1 << 20, 5), Shape{1024, 1024});
  auto y = rt::Tensor::from_host(b, randn(1 << 20, 6), Shape{1024, 1024});
  e.run(x, y)[0].finalize();
  b->synchronize();
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    auto z = e.run(x, y)[0];
    b->synchronize();
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    z.finalize();
  }
  record(st, "rt_matmul", total / st.iterations());
  st.counters["GFLOP/s"] = 2.0 * 1024 * 1024 * 1024 / (total / st.iterations()) / 1e9;
  if (g_sec.count("sgemm")) st.counters["ratio_vs_sgemm"] = g_sec["sgemm"] / (total / st.iterations());
}

// ---- 5. reference vs cpu, tiny and large model, compile included / excluded ----
// range(0): 0 tiny, 1 large; range(1): 0 reference, 1 cpu.
void BM_Steady(benchmark::State& st) {
  const Model& m = st.range(0) ? kLarge : kTiny;
  auto b = rt::Backend::create(st.range(1) ? "cpu" : "reference");
  Trainer t(b, m);
  for (int i = 0; i < 2; ++i) t.run();
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(t.run());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  record(st, std::string("steady_") + (st.range(0) ? "large_" : "tiny_") + (st.range(1) ? "cpu" : "reference"),
         total / st.iterations());
}

// A fresh Exec (compile) plus 10 training steps.
void BM_WithCompile(benchmark::State& st) {
  const Model& m = st.range(0) ? kLarge : kTiny;
  auto b = rt::Backend::create(st.range(1) ? "cpu" : "reference");
  static int salt = 0;
  double total = 0;
  for (auto _ : st) {
    auto t0 = std::chrono::steady_clock::now();
    Trainer t(b, m, 1e-3 * (1.0 + (++salt) * 1e-6));
    for (int i = 0; i < 10; ++i) benchmark::DoNotOptimize(t.run());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  record(st, std::string("compile10_") + (st.range(0) ? "large_" : "tiny_") + (st.range(1) ? "cpu" : "reference"),
         total / st.iterations());
}

}  // namespace

BENCHMARK(BM_Memcpy16M)->Unit(benchmark::kMillisecond)->Iterations(20)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(BM_FusedChain16M)->Unit(benchmark::kMillisecond)->Iterations(20)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(BM_JitOneKernel)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(15)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_JitMlpTrainStep)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(5)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_JitMlpTrainStepWarmCache)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(5)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_TorchMlpStep)->Unit(benchmark::kMillisecond)->Iterations(50)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(BM_CpuMlpStep)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(50)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_Sgemm1024)->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(BM_RuntimeMatmul1024)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(10)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_Steady)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_WithCompile)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

// The CPU model and the BLAS kernels every figure was measured with.
std::string machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  std::string blas = "none";
#ifdef MLPERF_BENCH_HAVE_BLAS
  blas = std::string("OpenBLAS core ") + openblas_get_corename() + ", 1 thread";
#endif
  return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " vCPUs; BLAS: " + blas +
         "; libtorch: 1 intra-op thread";
}

int main(int argc, char** argv) {
  // libtorch frees its activations and gradients on every step. With glibc's default, dynamic
  // thresholds, blocks over 128 KiB are mmap'ed and unmapped each time until some earlier large
  // free raises the threshold, so its step took 13 ms run first and 5 ms after any JIT benchmark
  // (runtime/BENCHMARKS.md section 3). Pinned, libtorch gets its best figure whatever runs first.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#ifdef MLPERF_BENCH_HAVE_BLAS
  openblas_set_num_threads(1);  // fastest on this 2-vCPU machine (see shared/notes)
#endif
  const std::string host = machine();
  benchmark::AddCustomContext("machine", host);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  // g_sec holds the last repetition of each; a summary with ratios and targets:
  auto get = [](const char* k) { return g_sec.count(k) ? g_sec[k] : 0.0; };
  auto ratio = [](double base, double x) { return (base > 0 && x > 0) ? base / x : 0.0; };
  std::printf("\nmachine: %s\n", host.c_str());
  std::printf("%-44s %12s %12s %8s %s\n", "benchmark", "value", "baseline", "ratio", "target");
  std::printf("%-44s %9.2f ms %9.2f ms %8.2f %s\n", "1 fused chain 16M f32 vs memcpy", get("chain") * 1e3,
              get("memcpy") * 1e3, ratio(get("memcpy"), get("chain")), ">= 0.80");
  double cpu_best =
      std::min(get("cpu_step_t1") > 0 ? get("cpu_step_t1") : 1e9, get("cpu_step_t2") > 0 ? get("cpu_step_t2") : 1e9);
  std::printf("%-44s %9.2f ms %9.2f ms %8.2f %s\n", "3 MLP train step cpu (best threads) vs torch", cpu_best * 1e3,
              get("torch_step") * 1e3, ratio(get("torch_step"), cpu_best), ">= 1.5");
  std::printf("%-44s %9.2f ms %9.2f ms %8.2f %s\n", "4 matmul 1024^3 runtime vs cblas_sgemm", get("rt_matmul") * 1e3,
              get("sgemm") * 1e3, ratio(get("sgemm"), get("rt_matmul")), ">= 0.9");
  for (const char* sz : {"tiny", "large"}) {
    std::string s = sz;
    std::printf("%-44s %9.2f ms %9.2f ms %8.2f %s\n", ("5 " + s + " step, compile excluded: cpu vs ref").c_str(),
                get(("steady_" + s + "_cpu").c_str()) * 1e3, get(("steady_" + s + "_reference").c_str()) * 1e3,
                ratio(get(("steady_" + s + "_reference").c_str()), get(("steady_" + s + "_cpu").c_str())), "(speedup)");
    std::printf("%-44s %9.2f ms %9.2f ms %8.2f %s\n", ("5 " + s + " compile+10 steps: cpu vs ref").c_str(),
                get(("compile10_" + s + "_cpu").c_str()) * 1e3, get(("compile10_" + s + "_reference").c_str()) * 1e3,
                ratio(get(("compile10_" + s + "_reference").c_str()), get(("compile10_" + s + "_cpu").c_str())),
                "(speedup)");
  }
  std::printf(
      "(2: JIT latency: see the BM_JitOneKernel, BM_JitMlpTrainStep (cold) and BM_JitMlpTrainStepWarmCache medians;"
      " targets 15 ms, 100 ms and 5 ms)\n");
  benchmark::Shutdown();
  return 0;
}
