// A reduction over device memory with thrust, whose headers CUDA 13 keeps in
// include/cccl (nvcc searches it by itself; clang does not).
#include <thrust/device_ptr.h>
#include <thrust/reduce.h>

#include <cuda_runtime.h>

float total(float *device_values, int n) {
  thrust::device_ptr<float> begin(device_values);
  return thrust::reduce(begin, begin + n);
}
