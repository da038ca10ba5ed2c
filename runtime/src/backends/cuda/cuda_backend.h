#pragma once
// Pieces of the cuda backend that work without a GPU (used by tests and gpu-check).
#include <string>

namespace mlperf::rt::cuda {

// NVRTC: CUDA C++ -> PTX for `arch` (e.g. "compute_75"). Needs no GPU or driver.
// Throws mlperf::rt::Error with the log and the source on failure.
std::string compile_ptx(const std::string& source, const std::string& arch, double* seconds = nullptr);

// True when libcuda.so.1 loads, initializes and reports at least one device.
bool driver_available(std::string* why = nullptr);

}  // namespace mlperf::rt::cuda
