#include "test_util.h"

std::vector<float> random_floats(size_t n, uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

rt::Tensor upload(const std::shared_ptr<rt::Backend>& b, const std::vector<float>& v, rt::Shape s) {
  return rt::Tensor::from_host(b, v, std::move(s));
}

namespace {
rt::Tensor class_labels(const std::shared_ptr<rt::Backend>& b, int64_t batch) {
  std::vector<int32_t> labels(static_cast<size_t>(batch));
  for (size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int32_t>(i % 4);
  return rt::Tensor::from_host(b, labels, rt::Shape{batch});
}
}  // namespace

MlpAdamStep::MlpAdamStep(std::shared_ptr<rt::Backend> b, int64_t batch, int64_t hidden, uint64_t init_seed,
                         uint64_t data_seed)
    : backend(b),
      ctx(b, init_seed),
      step(b, ctx,
           [this, hidden](rt::Context& c, rt::Graph& g, rt::Node in, rt::Node labels) {
             rt::Node h = rt::relu(rt::matmul(in, c.variable(g, "w1", rt::Shape{16, hidden})) +
                                   c.variable(g, "b1", rt::Shape{hidden}));
             rt::Node loss = rt::reduce_mean(
                 rt::softmax_cross_entropy(rt::matmul(h, c.variable(g, "w2", rt::Shape{hidden, 4})), labels));
             adam.minimize(c, g, loss);
             return loss;
           }),
      x(upload(b, random_floats(static_cast<size_t>(batch * 16), data_seed), rt::Shape{batch, 16})),
      y(class_labels(b, batch)) {}

float MlpAdamStep::run() { return step.run(x, y)[0].materialize<float>()[0]; }
