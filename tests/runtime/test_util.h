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
