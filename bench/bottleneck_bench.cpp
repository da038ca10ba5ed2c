// The tuning chapter's bottlenecks as BAD/GOOD user programs on the runtime, written against
// runtime/README.md. Arg 0 is the anti-pattern, arg 1 the fix; each iteration runs the whole
// program loop, and the reported time is per step (per request, per epoch). Counters: peak
// device memory, compilations, waits and host-to-device bytes per step.
//   bottleneck_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// MLPERF_BACKEND picks the backend (default: the fastest registered), except for the backend pair.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "mlperf/rt/runtime.h"

using namespace mlperf::rt;

namespace {

std::vector<float> wave(size_t n, float f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(f * static_cast<float>(i)) * 0.5f;
  return v;
}

std::vector<int32_t> classes(size_t n, int k) {
  std::vector<int32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>((i * 7) % static_cast<size_t>(k));
  return v;
}

Node mlp(Context& c, Graph& g, Node x, const std::vector<int64_t>& widths) {
  for (size_t i = 0; i + 1 < widths.size(); ++i) {
    std::string l = "l" + std::to_string(i);
    x = matmul(x, c.variable(g, l + "/w", Shape{widths[i], widths[i + 1]})) +
        c.variable(g, l + "/b", Shape{widths[i + 1]}, Initializer::zeros());
    if (i + 2 < widths.size()) x = relu(x);
  }
  return x;
}

// Runs `steps` of f(step) per iteration and reports the time per step and the counters.
template <class F>
void measure(benchmark::State& st, const std::shared_ptr<Backend>& b, int64_t steps, F f) {
  for (auto _ : st) {
    b->synchronize();
    b->reset_stats();
    auto t0 = std::chrono::steady_clock::now();
    try {
      f();
      b->synchronize();
    } catch (const Error& e) {  // e.g. OutOfDeviceMemory under MLPERF_DEVICE_MEMORY_LIMIT
      st.SkipWithError(e.what());
      return;
    }
    st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                        static_cast<double>(steps));
  }
  Stats s = b->stats();
  st.counters["peak_MiB"] = static_cast<double>(s.peak_bytes) / (1 << 20);
  st.counters["compilations"] = static_cast<double>(s.compilations);
  st.counters["waits_per_step"] = static_cast<double>(s.waits) / static_cast<double>(steps);
  st.counters["h2d_KiB_per_step"] = static_cast<double>(s.h2d_bytes) / 1024.0 / static_cast<double>(steps);
  st.counters["host_stalls"] = static_cast<double>(s.host_stalls);
}

// 1. Materialize the loss every step (bad) or every 50 steps (good): MLP 256-512-512-10, Adam, b64.
void BM_MaterializeEvery(benchmark::State& st) {
  const bool good = st.range(0) == 1;
  const int64_t steps = 100, every = good ? 50 : 1;
  auto b = Backend::create();
  Context ctx(b, 1);
  Adam adam(1e-3);
  Exec step(b, ctx, [&](Context& c, Graph& g, Node x, Node y) {
    Node loss = reduce_mean(softmax_cross_entropy(mlp(c, g, x, {256, 512, 512, 10}), y));
    adam.minimize(c, g, loss);
    return loss;
  });
  Tensor x = Tensor::from_host(b, wave(64 * 256, 0.01f), Shape{64, 256});
  Tensor y = Tensor::from_host<int32_t>(b, classes(64, 10), Shape{64});
  step.run(x, y)[0].materialize<float>();
  double sum = 0;
  measure(st, b, steps, [&] {
    Tensor loss;
    for (int64_t i = 1; i <= steps; ++i) {
      loss = step.run(x, y)[0];
      if (i % every == 0) sum += loss.materialize<float>()[0];
    }
  });
  benchmark::DoNotOptimize(sum);
}

// 2. Serve requests in batches of the queued size (bad) or padded to 32 rows (good): MLP 64-256-10.
void BM_VariableShapes(benchmark::State& st) {
  const bool good = st.range(0) == 1;
  const int64_t batches = 200, features = 64;
  auto b = Backend::create();
  Context ctx(b, 2);
  std::vector<float> data = wave(32 * features, 0.03f);
  double sum = 0;
  measure(st, b, batches, [&] {
    Exec classify(b, ctx, [&](Context& c, Graph& g, Node x) { return softmax(mlp(c, g, x, {features, 256, 10}), -1); });
    for (int64_t i = 0; i < batches; ++i) {
      int64_t rows = 1 + (i * 7919) % 32, shaped = good ? 32 : rows;
      std::vector<float> chunk(data.begin(), data.begin() + rows * features);
      chunk.resize(static_cast<size_t>(shaped * features), 0.0f);
      sum += classify.run(Tensor::from_host(b, chunk, Shape{shaped, features}))[0].materialize<float>()[0];
    }
  });
  benchmark::DoNotOptimize(sum);
}

// 3. Keep every step's output tensor (bad) or read it and finalize it (good): scoring, [256, 1000] outputs.
void BM_OutputsKept(benchmark::State& st) {
  const bool good = st.range(0) == 1;
  const int64_t steps = 100;
  auto b = Backend::create();
  Context ctx(b, 3);
  Exec score(b, ctx, [&](Context& c, Graph& g, Node x) { return mlp(c, g, x, {128, 1000}); });
  Tensor x = Tensor::from_host(b, wave(256 * 128, 0.02f), Shape{256, 128});
  double sum = 0;
  measure(st, b, steps, [&] {
    std::vector<Tensor> kept;
    for (int64_t i = 0; i < steps; ++i) {
      Tensor out = score.run(x)[0];
      if (good) {
        sum += out.materialize<float>()[0];
        out.finalize();
      } else {
        kept.push_back(out);
      }
    }
    for (auto& t : kept) sum += t.materialize<float>()[0];
  });
  benchmark::DoNotOptimize(sum);
}

// 4. Build the evaluation Exec in the epoch loop (bad) or once (good): MLP 32-64-4, 16 steps per epoch.
void BM_ExecInLoop(benchmark::State& st) {
  const bool good = st.range(0) == 1;
  const int64_t epochs = 10;
  auto b = Backend::create();
  Context ctx(b, 4);
  Adam adam(1e-2);
  auto logits = [](Context& c, Graph& g, Node x) { return mlp(c, g, x, {32, 64, 4}); };
  Exec train(b, ctx, [&](Context& c, Graph& g, Node x, Node y) {
    Node loss = reduce_mean(softmax_cross_entropy(logits(c, g, x), y));
    adam.minimize(c, g, loss);
    return loss;
  });
  auto eval_fn = [&](Context& c, Graph& g, Node x, Node y) {
    return reduce_mean(softmax_cross_entropy(logits(c, g, x), y));
  };
  Tensor x = Tensor::from_host(b, wave(64 * 32, 0.05f), Shape{64, 32});
  Tensor y = Tensor::from_host<int32_t>(b, classes(64, 4), Shape{64});
  Exec eval_once(b, ctx, eval_fn);
  train.run(x, y);
  eval_once.run(x, y)[0].materialize<float>();
  double sum = 0;
  measure(st, b, epochs, [&] {
    for (int64_t e = 0; e < epochs; ++e) {
      for (int s = 0; s < 16; ++s) train.run(x, y);
      if (good) {
        sum += eval_once.run(x, y)[0].materialize<float>()[0];
      } else {
        Exec eval(b, ctx, eval_fn);
        sum += eval.run(x, y)[0].materialize<float>()[0];
      }
    }
  });
  benchmark::DoNotOptimize(sum);
}

// 5. Backend choice: a fresh Exec (compile) and 20 training steps, on reference (0) or cpu (1), for
// a tiny (2-16-16-4, b32) or a large (784-512-512-10, b128) model.
void BM_BackendChoice(benchmark::State& st) {
  const bool cpu = st.range(0) == 1, large = st.range(1) == 1;
  const std::vector<int64_t> widths =
      large ? std::vector<int64_t>{784, 512, 512, 10} : std::vector<int64_t>{2, 16, 16, 4};
  const int64_t batch = large ? 128 : 32, steps = 20;
  auto b = Backend::create(cpu ? "cpu" : "reference");
  Tensor x = Tensor::from_host(b, wave(static_cast<size_t>(batch * widths[0]), 0.01f), Shape{batch, widths[0]});
  Tensor y = Tensor::from_host<int32_t>(b, classes(static_cast<size_t>(batch), 4), Shape{batch});
  double sum = 0;
  measure(st, b, steps, [&] {
    Context ctx(b, 5);
    Adam adam(1e-3);
    Exec step(b, ctx, [&](Context& c, Graph& g, Node xs, Node ys) {
      Node loss = reduce_mean(softmax_cross_entropy(mlp(c, g, xs, widths), ys));
      adam.minimize(c, g, loss);
      return loss;
    });
    Tensor loss;
    for (int64_t i = 0; i < steps; ++i) loss = step.run(x, y)[0];
    sum += loss.materialize<float>()[0];
  });
  benchmark::DoNotOptimize(sum);
}

// 6. Per request: upload a constant 512x512 projection and synchronize (bad), or upload it once and
// wait only for the answer (good). Requests of [16, 512].
void BM_UploadAndSyncPerRequest(benchmark::State& st) {
  const bool good = st.range(0) == 1;
  const int64_t requests = 100;
  auto b = Backend::create();
  Exec project(b, [](Graph&, Node x, Node p) { return tanh(matmul(x, p)); });
  std::vector<float> proj = wave(512 * 512, 0.001f), req = wave(16 * 512, 0.07f);
  Tensor hoisted = Tensor::from_host(b, proj, Shape{512, 512});
  double sum = 0;
  measure(st, b, requests, [&] {
    for (int64_t i = 0; i < requests; ++i) {
      Tensor x = Tensor::from_host(b, req, Shape{16, 512});
      Tensor p = good ? hoisted : Tensor::from_host(b, proj, Shape{512, 512});
      if (!good) b->synchronize();
      Tensor out = project.run(x, p)[0];
      if (!good) b->synchronize();
      sum += out.materialize<float>()[0];
    }
  });
  benchmark::DoNotOptimize(sum);
}

}  // namespace

BENCHMARK(BM_MaterializeEvery)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_VariableShapes)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_OutputsKept)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ExecInLoop)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_BackendChoice)
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK(BM_UploadAndSyncPerRequest)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
