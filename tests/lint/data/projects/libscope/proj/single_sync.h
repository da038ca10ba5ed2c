// single_sync - a single-file library copied into the project, in stb's
// style: #define SINGLE_SYNC_IMPLEMENTATION in one file before including it.
#pragma once
extern "C" int cudaDeviceSynchronize();
extern "C" int cuLaunchKernel(void *f);
void single_sync_run(void *kernel, int steps);

#ifdef SINGLE_SYNC_IMPLEMENTATION
void single_sync_run(void *kernel, int steps) {
  for (int step = 0; step < steps; ++step) {
    cuLaunchKernel(kernel);
    cudaDeviceSynchronize();
  }
}
#endif
