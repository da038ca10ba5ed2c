// The runtime behaves like an accelerator runtime where the tuning chapter's measurements depend
// on it: bounded work in flight, memory that does not grow with the queue, steps that run out of
// memory atomically (so "lower the batch size and retry" works).
#include <atomic>
#include <cmath>
#include <future>
#include <optional>
#include <thread>

#include "test_util.h"

using rt::Node;
using rt::Shape;

namespace {

class Fidelity : public BackendTest {};

// Holds the stream until open() (or destruction), so work queues up deterministically.
class Gate {
 public:
  explicit Gate(rt::Backend& b) : future_(promise_.get_future().share()) {
    rt::StreamTask t;
    t.fn = [f = future_] { f.wait(); };
    t.what = "test gate";
    b.enqueue(std::move(t));
  }
  ~Gate() { open(); }
  void open() {
    if (!opened_.exchange(true)) promise_.set_value();
  }

 private:
  std::promise<void> promise_;
  std::shared_future<void> future_;
  std::atomic<bool> opened_{false};
};

// Waits (a hang guard, not a timing assumption) until pred() holds.
template <class P>
bool eventually(P pred) {
  for (int i = 0; i < 20000 && !pred(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return pred();
}

TEST_P(Fidelity, RunBlocksAtTheInflightBoundAndCountsAStall) {
  backend->set_max_inflight(2);
  auto x = upload(backend, {1, 2, 3}, Shape{3});
  rt::Exec e(backend, [](rt::Graph&, Node v) { return v + 1.0; });
  e.run(x);  // compiles before the gate closes
  backend->synchronize();
  Gate gate(*backend);
  rt::Tensor a = e.run(x)[0], b = e.run(x)[0];
  EXPECT_EQ(backend->stats().host_stalls, 0);
  std::atomic<bool> returned{false};
  rt::Tensor c;
  std::thread t([&] {
    c = e.run(x)[0];
    returned = true;
  });
  ASSERT_TRUE(eventually([&] { return backend->stats().host_stalls == 1; }));
  EXPECT_FALSE(returned.load());  // the gate still holds the stream
  gate.open();
  t.join();
  EXPECT_EQ(c.materialize<float>(), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(backend->stats_json()["max_inflight"], 2);
}

TEST_P(Fidelity, ZeroMeansUnbounded) {
  backend->set_max_inflight(0);
  auto x = upload(backend, {1}, Shape{1});
  rt::Exec e(backend, [](rt::Graph&, Node v) { return v * 2.0; });
  Gate gate(*backend);
  for (int i = 0; i < 40; ++i) e.run(x);
  EXPECT_EQ(backend->stats().host_stalls, 0);
  EXPECT_GE(backend->pending_tasks(), 40u);
}

TEST(FidelityConfig, InflightBoundComesFromTheEnvironment) {
  EXPECT_EQ(rt::Backend::create("reference")->max_inflight(), rt::Backend::kDefaultMaxInflight);
  setenv("MLPERF_MAX_INFLIGHT", "3", 1);
  EXPECT_EQ(rt::Backend::create("reference")->max_inflight(), 3);
  setenv("MLPERF_MAX_INFLIGHT", "three", 1);
  EXPECT_THROW(rt::Backend::create("reference"), rt::ArgumentError);
  unsetenv("MLPERF_MAX_INFLIGHT");
}

// One SGD step of a 256x256 linear layer; returns the loss.
rt::Exec make_step(const std::shared_ptr<rt::Backend>& b, rt::Context& ctx, rt::SGD& sgd) {
  return rt::Exec(b, ctx, [&sgd](rt::Context& c, rt::Graph& g, Node x) {
    Node w = c.variable(g, "w", Shape{256, 256});
    Node loss = rt::reduce_mean(rt::square(rt::matmul(x, w)));
    sgd.minimize(c, g, loss);
    return loss;
  });
}

size_t peak_of_training(const std::string& name, bool read_every_step, int max_inflight) {
  auto b = rt::Backend::create(name);
  b->set_max_inflight(max_inflight);
  rt::Context ctx(b, 1);
  rt::SGD sgd(1e-3);
  rt::Exec step = make_step(b, ctx, sgd);
  auto x = upload(b, random_floats(32 * 256, 2), Shape{32, 256});
  step.run(x)[0].materialize<float>();
  b->synchronize();
  b->reset_stats();
  rt::Tensor loss;
  {
    Gate gate(*b);  // with reads every step the gate is opened at the first read
    for (int i = 0; i < 20; ++i) {
      loss = step.run(x)[0];
      if (read_every_step) {
        gate.open();
        loss.materialize<float>();
      }
    }
  }
  loss.materialize<float>();
  return b->peak_bytes();
}

TEST_P(Fidelity, AQueuedTrainingLoopUsesTheMemoryOfASynchronousOne) {
  size_t every_step = peak_of_training(GetParam(), true, rt::Backend::kDefaultMaxInflight);
  size_t queued = peak_of_training(GetParam(), false, rt::Backend::kDefaultMaxInflight);
  size_t unbounded = peak_of_training(GetParam(), false, 0);
  const size_t weights = 256 * 256 * 4;
  EXPECT_LE(queued, every_step + 64) << "20 queued steps held more than one extra copy of the weights";
  EXPECT_LE(unbounded, every_step + 64);
  EXPECT_GE(every_step, 2 * weights);  // the old and the new weights, as on an accelerator
}

TEST_P(Fidelity, AStepThatDoesNotFitThrowsFromRunAndTheModelTrainsOnAtASmallerBatch) {
  // The chapter's recipe: out of memory at batch 256, lower it to 128, keep the same weights.
  auto setup = [&](const std::shared_ptr<rt::Backend>& b) {
    std::vector<rt::Tensor> data;
    for (int64_t batch : {128, 256}) data.push_back(upload(b, random_floats(batch * 256, batch), Shape{batch, 256}));
    b->synchronize();
    return data;
  };
  auto peak_of = [&](int batch_index) {
    auto b = rt::Backend::create(GetParam());
    auto data = setup(b);
    rt::Context ctx(b, 7);
    rt::SGD sgd(1e-3);
    rt::Exec step = make_step(b, ctx, sgd);
    std::vector<float> losses;
    for (int i = 0; i < 2; ++i) losses.push_back(step.run(data[batch_index])[0].materialize<float>()[0]);
    return std::make_pair(b->peak_bytes(), losses);
  };
  auto [peak128, losses128] = peak_of(0);
  auto [peak256, unused] = peak_of(1);
  ASSERT_GT(peak256, peak128);

  auto b = rt::Backend::create(GetParam());
  auto data = setup(b);
  b->set_memory_limit((peak128 + peak256) / 2);
  rt::Context ctx(b, 7);
  rt::SGD sgd(1e-3);
  rt::Exec step = make_step(b, ctx, sgd);
  EXPECT_THROW(step.run(data[1]), rt::OutOfDeviceMemory);
  EXPECT_EQ(b->pending_tasks(), 0u);  // nothing was queued
  std::vector<float> losses;
  for (int i = 0; i < 2; ++i) losses.push_back(step.run(data[0])[0].materialize<float>()[0]);
  EXPECT_EQ(losses, losses128);  // the failed step changed no weight
}

TEST_P(Fidelity, FinalizeAllReleasesEveryVariable) {
  rt::Context ctx(backend, 3);
  rt::Adam adam(1e-3);
  rt::Exec step(backend, ctx, [&](rt::Context& c, rt::Graph& g, Node x) {
    Node loss = rt::reduce_mean(rt::square(rt::matmul(x, c.variable(g, "w", Shape{8, 8}))));
    adam.minimize(c, g, loss);
    return loss;
  });
  auto x = upload(backend, random_floats(32, 1), Shape{4, 8});
  step.run(x)[0].materialize<float>();
  backend->synchronize();
  size_t before = backend->bytes_in_use();
  size_t vars = ctx.bytes();
  ASSERT_GT(vars, 0u);
  ctx.finalize_all();
  backend->synchronize();
  EXPECT_EQ(backend->bytes_in_use(), before - vars);
  EXPECT_THROW(step.run(x), rt::FinalizedTensorError);
}

// The chapter's other memory advice: 16-bit variables and activations halve the peak. Trains an
// MLP 256-512-10 with SGD and momentum (Adam's eps = 1e-8 is 0 in f16) for 3 steps in `dtype` under `limit`; returns
// its peak and losses, or nothing when it ran out of memory.
std::optional<std::pair<size_t, std::vector<float>>> train_in(const std::string& name, rt::DType dtype, size_t limit) {
  auto b = rt::Backend::create(name);
  b->set_memory_limit(limit);
  try {
    rt::Context ctx(b, 11);
    rt::SGD sgd(0.05, 0.9);
    rt::Exec step(b, ctx, [&](rt::Context& c, rt::Graph& g, Node x, Node y) {
      auto init = rt::Initializer::glorot_uniform();
      Node h = rt::relu(rt::matmul(x, c.variable(g, "w1", Shape{256, 512}, init, dtype)));
      Node loss = rt::reduce_mean(
          rt::softmax_cross_entropy(rt::matmul(h, c.variable(g, "w2", Shape{512, 10}, init, dtype)), y));
      sgd.minimize(c, g, loss);
      return rt::cast(loss, rt::DType::F32);
    });
    std::vector<float> xs = random_floats(64 * 256, 5);
    std::vector<int32_t> ys(64);
    for (size_t i = 0; i < ys.size(); ++i) ys[i] = static_cast<int32_t>(i % 10);
    rt::Tensor x = rt::Tensor::from_host(b, std::span<const float>(xs), Shape{64, 256}, dtype);
    rt::Tensor y = rt::Tensor::from_host<int32_t>(b, ys, Shape{64});
    std::vector<float> losses;
    for (int i = 0; i < 3; ++i) losses.push_back(step.run(x, y)[0].materialize<float>()[0]);
    return std::make_pair(b->peak_bytes(), losses);
  } catch (const rt::OutOfDeviceMemory&) {
    return std::nullopt;
  }
}

TEST_P(Fidelity, HalfPrecisionFitsWhereSinglePrecisionRunsOutOfMemory) {
  auto f32 = train_in(GetParam(), rt::DType::F32, 0);
  auto f16 = train_in(GetParam(), rt::DType::F16, 0);
  ASSERT_TRUE(f32 && f16);
  EXPECT_LT(f16->first, f32->first * 6 / 10);
  size_t limit = (f16->first + f32->first) / 2;
  EXPECT_FALSE(train_in(GetParam(), rt::DType::F32, limit).has_value());
  auto fits = train_in(GetParam(), rt::DType::F16, limit);
  ASSERT_TRUE(fits.has_value());
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(fits->second[i], f32->second[i], 0.02 * std::fabs(f32->second[i]) + 0.01);
}

INSTANTIATE_FOR_ALL_BACKENDS(Fidelity);

}  // namespace
