#include "op_check.h"

#include <cmath>
#include <sstream>

std::string shape_str(const std::vector<int64_t>& s) { return rt::Shape(s).to_string(); }

namespace {

std::vector<double> weights_for(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 13);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> w(static_cast<size_t>(n));
  for (auto& x : w) x = static_cast<double>(static_cast<float>(d(rng)));
  return w;
}

double weighted_sum(const href::Arr& y, const std::vector<double>& w) {
  double s = 0;
  for (size_t i = 0; i < y.v.size(); ++i) s += y.v[i] * w[i];
  return s;
}

}  // namespace

void check_op(const std::shared_ptr<rt::Backend>& backend, const OpCase& c, uint64_t seed) {
  std::ostringstream trace;
  trace << "inputs";
  for (auto& s : c.shapes) trace << ' ' << shape_str(s);
  SCOPED_TRACE(trace.str());

  std::mt19937_64 rng(seed);
  std::vector<href::Arr> hin;
  std::vector<rt::Tensor> tin;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    auto [lo, hi] = i < c.ranges.size() ? c.ranges[i] : std::pair<double, double>{-1.0, 1.0};
    std::uniform_real_distribution<double> d(lo, hi);
    href::Arr a{c.shapes[i], {}};
    a.v.resize(static_cast<size_t>(a.numel()));
    std::vector<float> f(a.v.size());
    for (size_t j = 0; j < a.v.size(); ++j) {
      double x = c.integer_inputs ? std::round(d(rng) * 2.0) : d(rng);
      f[j] = static_cast<float>(x);
      a.v[j] = f[j];
    }
    hin.push_back(a);
    tin.push_back(rt::Tensor::from_host(backend, f, rt::Shape(c.shapes[i])));
  }
  href::Arr want = c.ref(hin);
  std::vector<double> w = weights_for(want.numel(), seed);

  rt::Exec exec(backend, [&](rt::Graph& g, const std::vector<rt::Node>& in) {
    rt::Node y = c.build(g, in);
    std::vector<rt::Node> outs{rt::cast(y, rt::DType::F32)};
    if (c.grad) {
      rt::Node loss = rt::reduce_sum(y * g.constant(w, y.shape()));
      for (rt::Node gr : rt::gradients(loss, in)) outs.push_back(gr);
    }
    return outs;
  });
  std::vector<rt::Tensor> out = exec.run(tin);

  ASSERT_EQ(out[0].shape().dims, want.shape) << "output shape";
  std::vector<float> got = out[0].materialize<float>();
  for (size_t i = 0; i < got.size(); ++i) {
    double e = want.v[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
      continue;
    }
    ASSERT_NEAR(got[i], e, c.fwd_tol * (1.0 + std::fabs(e))) << "forward element " << i;
  }
  if (!c.grad) return;

  for (size_t k = 0; k < hin.size(); ++k) {
    ASSERT_EQ(out[k + 1].shape().dims, hin[k].shape) << "gradient shape of input " << k;
    std::vector<float> gk = out[k + 1].materialize<float>();
    for (size_t j = 0; j < hin[k].v.size(); ++j) {
      std::vector<href::Arr> plus = hin, minus = hin;
      const double h = 1e-6 * std::max(1.0, std::fabs(hin[k].v[j]));
      plus[k].v[j] += h;
      minus[k].v[j] -= h;
      double fd = (weighted_sum(c.ref(plus), w) - weighted_sum(c.ref(minus), w)) / (2 * h);
      ASSERT_NEAR(gk[j], fd, c.grad_tol * (1.0 + std::fabs(fd))) << "gradient of input " << k << " element " << j;
    }
  }
}
