#pragma once
extern "C" int cudaDeviceSynchronize();
extern "C" int cuLaunchKernel(void *f);

namespace fakelib {
// A library helper that waits for the device on every call.
inline float clip(float *grads, int n) {
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += grads[i];
  cudaDeviceSynchronize();
  return total;
}
} // namespace fakelib
