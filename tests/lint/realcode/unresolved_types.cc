// Roles that would depend on declarations from a header that was not found.
// (With complete/ on the include path every include is found.)
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
extern "C" int cudaDeviceSynchronize();
extern "C" int cuLaunchKernel(void *f);
extern "C" int cudaMemcpy(void *dst, const void *src, unsigned long n, cudaMemcpyKind kind);
extern "C" int cudaMalloc(void **p, unsigned long n);
extern "C" int cudaFree(void *p);

#include "vision/frame.h"

// A C function's call is that function whatever its unknown argument: a step.
void unresolvedStep(vision::Frame<3> frame) {
  for (int i = 0; i < 10; ++i) {
    cuLaunchKernel(frame.kernel());
    cudaDeviceSynchronize();
  }
}

// The copy's direction is an unknown value: no role.
void unresolvedDirection(void *k, float *host, float *dev, vision::Frame<3> frame) {
  for (int i = 0; i < 10; ++i) {
    cuLaunchKernel(k);
    cudaMemcpy(host, dev, 64, frame.direction());
  }
}

// Nothing here depends on the missing header.
void resolved(void *k) {
  for (int i = 0; i < 10; ++i) {
    cuLaunchKernel(k);
    cudaDeviceSynchronize();
  }
}

// Only the size comes from the unknown type: what the call is does not
// depend on it, so this is still an allocation freed in every iteration.
void unresolvedSize(void *k, vision::Frame<3> frame) {
  for (int i = 0; i < 10; ++i) {
    cuLaunchKernel(k);
    int width = frame.width(i);
    void *crop;
    cudaMalloc(&crop, width * 4);
    cudaFree(crop);
  }
}
