// Self-contained GPU check (no gtest, no Google Benchmark): cross-checks the cuda backend
// against the reference on random inputs, then times a few workloads and prints a table.
// Run by scripts/gpu-check.sh. Exit status 0: all checks passed (or no GPU: 77 = skipped).
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mlperf/rt/runtime.h"

namespace rt = mlperf::rt;
using rt::Node;
using rt::Shape;

namespace {

std::vector<float> randn(size_t n, uint64_t seed) {
  std::mt19937_64 r(seed);
  std::uniform_real_distribution<float> d(-2, 2);
  std::vector<float> v(n);
  for (auto& x : v) x = d(r);
  return v;
}

int failures = 0, checks = 0;

void check(const std::string& name, const std::shared_ptr<rt::Backend>& gpu, const std::shared_ptr<rt::Backend>& ref,
           const rt::ModelFn& fn, const std::vector<Shape>& shapes, double tol) {
  auto run = [&](const std::shared_ptr<rt::Backend>& b) {
    rt::Exec e(b, fn, static_cast<int>(shapes.size()));
    std::vector<rt::Tensor> args;
    for (size_t i = 0; i < shapes.size(); ++i)
      args.push_back(rt::Tensor::from_host(b, randn(static_cast<size_t>(shapes[i].numel()), 10 + i), shapes[i]));
    std::vector<std::vector<double>> out;
    for (auto& t : e.run(args)) out.push_back(t.materialize<double>());
    return out;
  };
  ++checks;
  try {
    auto a = run(gpu), r = run(ref);
    double worst = 0;
    for (size_t o = 0; o < r.size(); ++o)
      for (size_t i = 0; i < r[o].size(); ++i) {
        double err = std::fabs(a[o][i] - r[o][i]) / (1.0 + std::fabs(r[o][i]));
        if (!(err <= worst)) worst = std::isnan(err) ? 1e9 : std::max(worst, err);
      }
    bool ok = worst <= tol;
    failures += !ok;
    std::printf("  %-4s %-46s max rel err %.2e\n", ok ? "ok" : "FAIL", name.c_str(), worst);
  } catch (const std::exception& e) {
    ++failures;
    std::printf("  FAIL %-46s %s\n", name.c_str(), e.what());
  }
}

Node mlp(rt::Context& c, rt::Graph& g, Node x, const std::vector<int64_t>& s) {
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    std::string n = "l" + std::to_string(i);
    x = rt::matmul(x, c.variable(g, n + "/w", Shape{s[i], s[i + 1]})) +
        c.variable(g, n + "/b", Shape{s[i + 1]}, rt::Initializer::zeros());
    if (i + 2 < s.size()) x = rt::relu(x);
  }
  return x;
}

struct Trainer {
  std::unique_ptr<rt::Context> ctx;
  std::unique_ptr<rt::Adam> adam;
  std::unique_ptr<rt::Exec> step;
  rt::Tensor x, y;
  Trainer(const std::shared_ptr<rt::Backend>& b, std::vector<int64_t> sizes, int64_t batch) {
    ctx = std::make_unique<rt::Context>(b, 1);
    adam = std::make_unique<rt::Adam>(1e-3);
    rt::Adam* a = adam.get();
    step = std::make_unique<rt::Exec>(b, *ctx, [sizes, a](rt::Context& c, rt::Graph& g, Node xx, Node yy) {
      Node loss = rt::reduce_mean(rt::softmax_cross_entropy(mlp(c, g, xx, sizes), yy));
      a->minimize(c, g, loss);
      return loss;
    });
    x = rt::Tensor::from_host(b, randn(static_cast<size_t>(batch * sizes[0]), 3), Shape{batch, sizes[0]});
    std::vector<int32_t> ys;
    for (int64_t i = 0; i < batch; ++i) ys.push_back(static_cast<int32_t>(i % sizes.back()));
    y = rt::Tensor::from_host(b, ys, Shape{batch});
  }
  float run() { return step->run(x, y)[0].materialize<float>()[0]; }
};

template <class F>
double median_ms(int reps, F&& f) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    v.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// What compiling a training step costs through NVRTC (one module per executable): a fresh
// executable's first step minus a steady step, and the backend's compile seconds; cold (no
// persistent cache) and from a warm persistent cache (MLPERF_KERNEL_CACHE_DIR).
void compile_times(const std::shared_ptr<rt::Backend>& gpu) {
  const std::vector<int64_t> sizes{784, 512, 512, 10};
  auto measure = [&](const char* what) {
    std::vector<double> wall, nvrtc;
    int64_t kernels = 0;
    for (int rep = 0; rep < 3; ++rep) {
      Trainer t(gpu, sizes, 128);
      rt::Stats before = gpu->stats();
      auto t0 = std::chrono::steady_clock::now();
      t.run();
      double first = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      rt::Stats after = gpu->stats();
      double steady = median_ms(5, [&] { t.run(); });
      wall.push_back(first - steady);
      nvrtc.push_back((after.compile_seconds - before.compile_seconds) * 1e3);
      kernels = after.compilations - before.compilations;
    }
    std::sort(wall.begin(), wall.end());
    std::sort(nvrtc.begin(), nvrtc.end());
    std::printf("  %-44s %8.1f ms first step - steady step, %8.1f ms compiling (%lld compilations; medians of 3)\n",
                what, wall[1], nvrtc[1], static_cast<long long>(kernels));
  };
  std::printf("\ncompile (MLP 784-512-512-10 Adam training step, b128):\n");
  unsetenv("MLPERF_KERNEL_CACHE_DIR");
  measure("cold (no persistent cache)");
  char dir[] = "/tmp/mlperf-gpu-check-XXXXXX";
  if (mkdtemp(dir)) {
    setenv("MLPERF_KERNEL_CACHE_DIR", dir, 1);
    Trainer(gpu, sizes, 128).run();  // fills the cache
    measure("warm persistent cache");
    unsetenv("MLPERF_KERNEL_CACHE_DIR");
    std::filesystem::remove_all(dir);
  }
}

}  // namespace

int main() {
  auto names = rt::registered_backends();
  if (std::find(names.begin(), names.end(), "cuda") == names.end()) {
    std::printf("gpu_check: the cuda backend is not available here (no driver/GPU, or not built); skipped\n");
    return 77;
  }
  auto gpu = rt::Backend::create("cuda"), ref = rt::Backend::create("reference");
  std::printf("gpu_check: %s\n", gpu->stats_string().c_str());
  std::printf("correctness (cuda vs reference):\n");
  for (Shape s : {Shape{1}, Shape{7}, Shape{33}, Shape{1000}, Shape{65537}, Shape{17, 129}, Shape{2, 3, 7}}) {
    check(
        "elementwise chain " + s.to_string(), gpu, ref,
        [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          Node x = in[0], y = in[1];
          return {rt::tanh(x * 1.5 + y) * rt::sigmoid(x) - rt::relu(y) / (rt::abs(x) + 1.0),
                  rt::where(rt::gt(x, y), rt::exp(x * 0.5), rt::gelu(y))};
        },
        {s, s}, 1e-5);
  }
  check(
      "broadcast bias + relu [257,33]", gpu, ref,
      [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> { return {rt::relu(in[0] + in[1]) * in[2]}; },
      {Shape{257, 33}, Shape{33}, Shape{257, 1}}, 1e-6);
  for (std::vector<int64_t> axes : {std::vector<int64_t>{0}, {1}, {0, 1}, {}})
    check(
        "reduce sum/max axes " + std::to_string(axes.size()), gpu, ref,
        [axes](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          return {rt::reduce_sum(rt::exp(in[0] * 0.5), axes), rt::reduce_max(in[0], axes)};
        },
        {Shape{33, 65}}, 1e-5);
  check(
      "softmax / cross-entropy [128,10]", gpu, ref,
      [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
        Node labels = rt::cast(rt::argmax(in[1], -1), rt::DType::I32);
        return {rt::softmax(in[0]), rt::softmax_cross_entropy(in[0], labels)};
      },
      {Shape{128, 10}, Shape{128, 10}}, 1e-5);
  check(
      "layout: transpose/slice/pad/concat", gpu, ref,
      [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
        Node s = rt::slice(in[0], {0, 1, 0}, {3, 5, 7}, {2, 2, 3});
        return {rt::transpose(in[0], {1, 0, 2}) + 1.0, rt::pad(rt::exp(s), {1, 0, 2}, {0, 3, 1}, -1.0),
                rt::concat({rt::tanh(in[0]), in[0] * 2.0}, 1)};
      },
      {Shape{3, 5, 7}}, 1e-5);
  check(
      "matmul + gelu epilogue, transposed operands", gpu, ref,
      [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
        Node h = rt::gelu(rt::matmul(in[0], in[1]) + in[2]);
        return {h, rt::matmul(rt::transpose(in[0]), h)};
      },
      {Shape{33, 65}, Shape{65, 17}, Shape{17}}, 1e-4);
  check(
      "half precision chain", gpu, ref,
      [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
        Node x = rt::cast(in[0], rt::DType::F16);
        return {rt::cast(rt::tanh(x * x + x), rt::DType::F32), rt::random_uniform(in[0].graph(), Shape{9, 17}, 5)};
      },
      {Shape{9, 17}}, 1e-6);
  {
    ++checks;
    Trainer tg(gpu, {784, 512, 512, 10}, 128), tr(ref, {784, 512, 512, 10}, 128);
    double worst = 0;
    for (int i = 0; i < 5; ++i) worst = std::max(worst, std::fabs(static_cast<double>(tg.run() - tr.run())));
    bool ok = worst < 1e-3;
    failures += !ok;
    std::printf("  %-4s %-46s max loss diff %.2e\n", ok ? "ok" : "FAIL", "MLP 784-512-512-10 Adam, 5 steps", worst);
  }

  compile_times(gpu);

  std::printf("\nbenchmarks (median ms):\n");
  const int64_t n = 16 << 20;
  auto x = rt::Tensor::from_host(gpu, randn(n, 1), Shape{n});
  rt::Exec chain(gpu, [](rt::Graph&, Node v) { return rt::relu(v * 1.5 + 0.25) * rt::sigmoid(v) - v * 0.5; });
  rt::Exec copy(gpu, [](rt::Graph&, Node v) { return rt::reshape(v, Shape{n}); });  // a device-to-device copy
  auto timed = [&](rt::Exec& e) {
    e.run(x)[0].finalize();
    gpu->synchronize();
    return median_ms(20, [&] {
      auto y = e.run(x)[0];
      gpu->synchronize();
    });
  };
  double t_chain = timed(chain), t_copy = timed(copy);
  Trainer big(gpu, {784, 512, 512, 10}, 128);
  for (int i = 0; i < 3; ++i) big.run();
  double t_step = median_ms(50, [&] { big.run(); });
  Trainer bigr(ref, {784, 512, 512, 10}, 128);
  bigr.run();
  double t_step_ref = median_ms(5, [&] { bigr.run(); });
  rt::Exec mm(gpu, [](rt::Graph&, Node a, Node b) { return rt::matmul(a, b); });
  auto a = rt::Tensor::from_host(gpu, randn(1 << 20, 2), Shape{1024, 1024});
  mm.run(a, a)[0].finalize();
  double t_mm = median_ms(20, [&] {
    auto z = mm.run(a, a)[0];
    gpu->synchronize();
  });
  std::printf("%-46s %10s %10s %8s\n", "workload", "cuda", "baseline", "ratio");
  std::printf("%-46s %10.3f %10.3f %8.2f  (baseline: d2d copy; GB/s %.0f)\n", "fused chain 16M f32", t_chain, t_copy,
              t_copy / t_chain, 2.0 * n * 4 / (t_chain * 1e-3) / 1e9);
  std::printf("%-46s %10.3f %10.3f %8.2f  (baseline: reference backend)\n", "MLP 784-512-512-10 b128 Adam step", t_step,
              t_step_ref, t_step_ref / t_step);
  std::printf("%-46s %10.3f %10s %8s  (%.0f GFLOP/s)\n", "matmul 1024^3", t_mm, "-", "-",
              2.0 * (1 << 30) / (t_mm * 1e-3) / 1e9);
  std::printf("%-46s %s\n", "backend stats", gpu->stats_string().c_str());
  std::printf("\ngpu_check: %d/%d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}
