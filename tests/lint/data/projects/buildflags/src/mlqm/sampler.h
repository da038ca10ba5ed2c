#pragma once
// The GPU sampler exists only as the project's build compiles it: C++23 with
// MLQM_GPU. Otherwise (the linter's default flags) it is a CPU stub.
#if __cplusplus > 202002L && defined(MLQM_GPU)
extern "C" int cudaDeviceSynchronize();
extern "C" int cuLaunchKernel(void *f);

namespace mlqm {
inline void sample(void *kernel) { cuLaunchKernel(kernel); }
} // namespace mlqm
#else
#define cudaDeviceSynchronize() 0
namespace mlqm {
inline void sample(void *) {}
} // namespace mlqm
#endif
