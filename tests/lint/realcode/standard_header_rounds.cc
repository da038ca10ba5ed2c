// A function whose parameter type comes from a standard header the file does
// not include (<optional>): the first parse, before the linter includes it,
// sees only the second loop's finding; the second parse finds the first loop's
// finding before it. Each finding keeps its own check's name.
#include <vector>

#include "cuda_decls.h"

extern "C" int cudaMalloc(void **p, unsigned long n);
extern "C" int cudaFree(void *p);

void first(std::optional<void *> k) {
  for (int i = 0; i < 10; ++i) {
    cuLaunchKernel(*k);
    cudaDeviceSynchronize();
  }
}

void second(void *k) {
  for (int i = 0; i < 10; ++i) {
    void *p;
    cudaMalloc(&p, 1024);
    cuLaunchKernel(k);
    cudaFree(p);
  }
}
