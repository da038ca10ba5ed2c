#pragma once
// Code generation: one generator writes a small C-like source per fused kernel from
// the fusion pass's KernelDesc. The CPU (C, compiled in-process by clang) and CUDA
// (CUDA C++, compiled by NVRTC) flavours share the body; they differ only in the
// signature, how the element index is obtained and how math builtins are spelled.
#include <string>
#include <vector>

#include "fusion/fusion.h"

namespace mlperf::rt::codegen {

enum class Target { CPU, CUDA };

struct Kernel {
  std::string name;         // "k_" + a hash of the source: equal sources share a name
  std::string source;       // the kernel function alone (prepend prelude(target) to compile)
  std::vector<int> params;  // buffer ids in parameter order: loads, then stores
  size_t num_loads = 0;
  bool optimized = true;  // CPU: false for a kernel compiled without optimization (RT_SMALL)
};

// Type definitions and helpers (f16/bf16 conversion, the counter-based RNG) every kernel uses.
const std::string& prelude(Target t);
Kernel generate(const fusion::Program& p, int kernel_index, Target t);

// Test hook: while enabled, every CPU kernel generated in the process is also generated
// for CUDA and kept, so a test can push all of them through NVRTC.
void record_cuda_twins(bool enable);
std::vector<Kernel> recorded_cuda_twins();

}  // namespace mlperf::rt::codegen
