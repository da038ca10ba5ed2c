// A helper that uploads a table, defined in upload.cc, called from train.cc.
#pragma once
#include "../cuda_decls.h"
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
extern "C" int cudaMemcpy(void *dst, const void *src, unsigned long n, cudaMemcpyKind kind);

void upload_table(float *device, const float *table, unsigned long n);
