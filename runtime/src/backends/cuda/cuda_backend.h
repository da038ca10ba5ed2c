#pragma once
// Pieces of the cuda backend that work without a GPU (used by tests and gpu-check).
#include <string>

namespace mlperf::rt::cuda {

// NVRTC: CUDA C++ -> PTX for `arch` (e.g. "compute_75"). Needs no GPU or driver.
// Throws mlperf::rt::Error with the log and the source on failure. With a persistent kernel
// cache directory (MLPERF_KERNEL_CACHE_DIR) the PTX is stored under a hash of the source, the
// architecture, the options and NVRTC's version, and later compiles of the same source load it
// (*from_disk set).
std::string compile_ptx(const std::string& source, const std::string& arch, double* seconds = nullptr,
                        bool* from_disk = nullptr);

// True when libcuda.so.1 loads, initializes and reports at least one device.
bool driver_available(std::string* why = nullptr);

}  // namespace mlperf::rt::cuda
