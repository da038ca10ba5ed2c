#include "detector.h"

Detector::Detector(std::size_t n) : n_(n) {
  cudaMalloc(reinterpret_cast<void **>(&device_), n * sizeof(float));
  host_out_ = new float[n];
}

float Detector::run(cudaStream_t stream) {
  cudaMemcpyAsync(host_out_, device_, n_ * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  return host_out_[0];
}
