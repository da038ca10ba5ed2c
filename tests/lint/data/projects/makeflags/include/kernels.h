#pragma once
/* The CUDA driver calls the C sources use, reached through -Iinclude. */
int cuLaunchKernel(void *f);
int cudaDeviceSynchronize(void);
