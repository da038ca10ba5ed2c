// A detector whose class declares a method that no file of the program
// defines (a video mode left unwritten): it never runs, so it stores nothing
// into the output buffer, which only the constructor fills with new[].
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

class Detector {
public:
  explicit Detector(std::size_t n);
  float run(cudaStream_t stream);
  void detectVideo(const std::string &path);

private:
  std::size_t n_;
  float *device_ = nullptr;
  float *host_out_ = nullptr;
};
