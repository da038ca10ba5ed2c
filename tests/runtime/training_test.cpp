#include <cmath>

#include "test_util.h"

using rt::Node;
using rt::Shape;

namespace {

// Four Gaussian blobs in 2-D, labels 0..3.
void make_blobs(int64_t n, uint64_t seed, std::vector<float>& x, std::vector<int32_t>& y) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.0f, 0.35f);
  const float cx[4] = {1, -1, -1, 1}, cy[4] = {1, 1, -1, -1};
  for (int64_t i = 0; i < n; ++i) {
    int c = static_cast<int>(i % 4);
    x.push_back(cx[c] + noise(rng));
    x.push_back(cy[c] + noise(rng));
    y.push_back(c);
  }
}

Node dense(rt::Context& ctx, rt::Graph& g, const std::string& name, Node x, int64_t out) {
  Node w = ctx.variable(g, name + "/w", Shape{x.shape()[1], out});
  Node b = ctx.variable(g, name + "/b", Shape{out}, rt::Initializer::zeros());
  return rt::matmul(x, w) + b;
}

Node mlp(rt::Context& ctx, rt::Graph& g, Node x) {
  Node h = rt::relu(dense(ctx, g, "l1", x, 16));
  h = rt::tanh(dense(ctx, g, "l2", h, 16));
  return dense(ctx, g, "out", h, 4);
}

struct Result {
  std::vector<float> losses;
  std::vector<float> weights;
  float accuracy;
};

Result train(const std::shared_ptr<rt::Backend>& backend, rt::Optimizer& opt, int epochs) {
  std::vector<float> xs;
  std::vector<int32_t> ys;
  make_blobs(256, 11, xs, ys);
  rt::InMemoryDataset ds(32, rt::BatchMode::DropLast);
  ds.add_column(xs, Shape{2}).add_column(ys, Shape{}).shuffle(5);
  rt::Context ctx(backend, 1234);
  rt::Exec step(backend, ctx, [&](rt::Context& c, rt::Graph& g, Node x, Node y) {
    Node loss = rt::reduce_mean(rt::softmax_cross_entropy(mlp(c, g, x), y));
    opt.minimize(c, g, loss);
    return loss;
  });
  Result r;
  for (int ep = 0; ep < epochs; ++ep) {
    ds.reset();
    rt::Prefetcher pf(backend, ds, 2);
    rt::Tensor last;
    while (auto b = pf.next()) last = step.run(b->columns[0], b->columns[1])[0];
    r.losses.push_back(last.materialize<float>()[0]);
  }
  EXPECT_EQ(step.compilations(), 1);
  r.weights = ctx.get("l1/w").materialize<float>();
  rt::Exec eval(backend, ctx, [](rt::Context& c, rt::Graph& g, Node x, Node y) {
    Node pred = rt::argmax(mlp(c, g, x), -1);
    return rt::reduce_mean(rt::cast(rt::eq(pred, rt::cast(y, rt::DType::I64)), rt::DType::F32));
  });
  r.accuracy =
      eval.run(rt::Tensor::from_host(backend, xs, Shape{256, 2}), rt::Tensor::from_host(backend, ys, Shape{256}))[0]
          .materialize<float>()[0];
  return r;
}

}  // namespace

class Training : public BackendTest {};

TEST_P(Training, MlpWithAdamReachesLossThresholdDeterministically) {
  rt::Adam adam(0.02);
  Result a = train(backend, adam, 12);
  EXPECT_LT(a.losses.back(), 0.15f) << "first epoch loss " << a.losses.front();
  EXPECT_LT(a.losses.back(), a.losses.front());
  EXPECT_GT(a.accuracy, 0.95f);
  rt::Adam adam2(0.02);
  Result b = train(backend, adam2, 12);
  EXPECT_EQ(a.losses, b.losses);
  EXPECT_EQ(a.weights, b.weights);
}

TEST_P(Training, MlpWithSgdMomentumLearns) {
  rt::SGD sgd(0.1, 0.9);
  Result a = train(backend, sgd, 8);
  EXPECT_LT(a.losses.back(), 0.2f) << "first epoch loss " << a.losses.front();
  EXPECT_GT(a.accuracy, 0.95f);
}

TEST_P(Training, OptimizerStepMatchesHandComputedUpdateAndStaysOnDevice) {
  rt::Context ctx(backend);
  ctx.create("w", Shape{2}, rt::Initializer::constant(1.0));
  rt::Adam adam(0.1);
  rt::Exec step(backend, ctx, [&](rt::Context& c, rt::Graph& g, Node x) {
    Node loss = rt::reduce_sum(rt::square(c.variable(g, "w") * x));
    adam.minimize(c, g, loss);
    return loss;
  });
  auto x = upload(backend, {1, 2}, Shape{2});
  step.run(x);  // the first build creates the optimizer's slot variables
  backend->synchronize();
  backend->reset_stats();
  for (int i = 0; i < 2; ++i) step.run(x);
  backend->synchronize();
  EXPECT_EQ(backend->stats().d2h_copies, 0);  // weights never leave the device
  EXPECT_EQ(backend->stats().h2d_copies, 0);
  auto w = ctx.get("w").materialize<float>();
  const double xs[2] = {1, 2};
  for (int k = 0; k < 2; ++k) {
    double wk = 1, m = 0, v = 0;
    for (int t = 1; t <= 3; ++t) {
      double g = 2 * wk * xs[k] * xs[k];
      m = 0.9 * m + 0.1 * g;
      v = 0.999 * v + 0.001 * g * g;
      wk -= 0.1 * (m / (1 - std::pow(0.9, t))) / (std::sqrt(v / (1 - std::pow(0.999, t))) + 1e-8);
    }
    EXPECT_NEAR(w[static_cast<size_t>(k)], wk, 1e-5);
  }
  EXPECT_EQ(ctx.get("optimizer/adam/step").materialize<float>()[0], 3.0f);
  EXPECT_TRUE(ctx.has("optimizer/adam/m/w"));
  EXPECT_FALSE(ctx.trainable("optimizer/adam/v/w"));

  rt::Context c2(backend);
  c2.create("w", Shape{2}, rt::Initializer::constant(1.0));
  rt::SGD sgd(0.25, 0.5);
  rt::Exec s2(backend, c2, [&](rt::Context& c, rt::Graph& g, Node x) {
    Node loss = rt::reduce_sum(c.variable(g, "w") * x);
    sgd.minimize(c, g, loss);
    return loss;
  });
  s2.run(x);
  s2.run(x);
  // velocity v1 = g, v2 = 0.5 g + g; w = 1 - 0.25 (g + 1.5 g)
  auto w2 = c2.get("w").materialize<float>();
  EXPECT_FLOAT_EQ(w2[0], 1.0f - 0.25f * 2.5f * 1.0f);
  EXPECT_FLOAT_EQ(w2[1], 1.0f - 0.25f * 2.5f * 2.0f);
}

TEST_P(Training, ContextInitializersAreSeededAndShaped) {
  rt::Context a(backend, 7), b(backend, 7), c(backend, 8);
  for (rt::Context* ctx : {&a, &b, &c}) {
    ctx->create("g", Shape{64, 32}, rt::Initializer::glorot_uniform());
    ctx->create("n", Shape{1000}, rt::Initializer::normal(2.0, 0.5));
    ctx->create("u", Shape{10}, rt::Initializer::uniform(3, 4));
    ctx->create("k", Shape{3}, rt::Initializer::constant(1.5), rt::DType::BF16);
  }
  EXPECT_EQ(a.get("g").materialize<float>(), b.get("g").materialize<float>());
  EXPECT_NE(a.get("g").materialize<float>(), c.get("g").materialize<float>());
  float lim = std::sqrt(6.0f / 96.0f);
  for (float v : a.get("g").materialize<float>()) ASSERT_LE(std::fabs(v), lim);
  double mean = 0;
  for (float v : a.get("n").materialize<float>()) mean += v / 1000.0;
  EXPECT_NEAR(mean, 2.0, 0.1);
  for (float v : a.get("u").materialize<float>()) ASSERT_TRUE(v >= 3 && v <= 4);
  EXPECT_EQ(a.get("k").dtype(), rt::DType::BF16);
  EXPECT_EQ(a.get("k").materialize<float>(), (std::vector<float>{1.5f, 1.5f, 1.5f}));
  EXPECT_THROW(a.create("g", Shape{1}, rt::Initializer::zeros()), rt::ArgumentError);
  EXPECT_THROW(a.get("missing"), rt::ArgumentError);
  EXPECT_THROW(a.set("u", upload(backend, {1}, Shape{1})), rt::ShapeError);
  EXPECT_EQ(a.bytes(), 64u * 32 * 4 + 1000 * 4 + 10 * 4 + 3 * 2);
}

INSTANTIATE_FOR_ALL_BACKENDS(Training);
