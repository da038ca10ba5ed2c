// The two CUDA calls the cases use, declared as the CUDA profile names them.
#pragma once
extern "C" int cudaDeviceSynchronize();
extern "C" int cuLaunchKernel(void *f);
