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
