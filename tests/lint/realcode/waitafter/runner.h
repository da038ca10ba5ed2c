// An engine wrapper whose run ends with a wait on its stream: whether the
// wait is needed is decided where run is called.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

class Runner {
public:
  explicit Runner(std::size_t n);
  void run(const float *input);
  void copyOut(float *host) const;

private:
  std::size_t n_;
  float *device_ = nullptr;
  cudaStream_t stream_ = nullptr;
};
