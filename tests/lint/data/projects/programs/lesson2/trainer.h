#pragma once
extern "C" int cudaDeviceSynchronize();
extern "C" int cuLaunchKernel(void *f);

void train_step(void *kernel, float *loss);
