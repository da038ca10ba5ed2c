// Thrust reductions in a training-style loop: over device memory (a
// device_vector's iterators, a device_ptr, a raw pointer under
// thrust::device) each one waits for the device and copies its result back
// on every step; over host memory they run on the CPU and cost nothing here.
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cuda_runtime.h>

#include <vector>

__global__ void decay(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] *= 0.5f;
}

int main() {
  const int n = 1 << 20;
  thrust::device_vector<float> weights(n, 1.0f);
  std::vector<float> host(n, 1.0f);
  float *w = thrust::raw_pointer_cast(weights.data());
  thrust::device_ptr<float> p(w);
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    decay<<<n / 256, 256>>>(w, n);
    total += thrust::reduce(weights.begin(), weights.end());
    total += thrust::reduce(p, p + n);
    total += thrust::reduce(thrust::device, w, w + n);
    total += thrust::reduce(thrust::host, host.data(), host.data() + n);
    total += thrust::reduce(host.begin(), host.end());
  }
  return total > 0;
}
