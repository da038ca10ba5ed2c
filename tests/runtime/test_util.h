#pragma once
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "mlperf/rt/runtime.h"

namespace rt = mlperf::rt;

// Test fixture parameterized over every registered backend.
class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { backend = rt::Backend::create(GetParam()); }
  std::shared_ptr<rt::Backend> backend;
};

#define INSTANTIATE_FOR_ALL_BACKENDS(Suite)                                                    \
  INSTANTIATE_TEST_SUITE_P(AllBackends, Suite, ::testing::ValuesIn(rt::registered_backends()), \
                           [](const ::testing::TestParamInfo<std::string>& i) { return i.param; })

std::vector<float> random_floats(size_t n, uint64_t seed, float lo = -1.0f, float hi = 1.0f);
rt::Tensor upload(const std::shared_ptr<rt::Backend>& b, const std::vector<float>& v, rt::Shape s);

// A two-layer MLP (16 features, `hidden` units, 4 classes) trained with Adam on one fixed batch
// of `batch` rows on `b`: the training step the JIT tests compile, split into modules and cache.
struct MlpAdamStep {
  MlpAdamStep(std::shared_ptr<rt::Backend> b, int64_t batch, int64_t hidden, uint64_t init_seed, uint64_t data_seed);
  float run();  // one step; its loss

  std::shared_ptr<rt::Backend> backend;
  rt::Context ctx;
  rt::Adam adam{1e-2};
  rt::Exec step;
  rt::Tensor x, y;
};
