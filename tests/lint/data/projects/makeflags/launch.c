/* A C source in the same directory: the Makefile's C++ standard does not
   apply to it, its include directories do. */
#include <stdlib.h>

#include "kernels.h"

void run(void *kernel, int steps) {
  for (int step = 0; step < steps; ++step) {
    int *scratch = malloc(sizeof(int) * 16); /* C: no cast from void * */
    cuLaunchKernel(kernel);
    cudaDeviceSynchronize();
    free(scratch);
  }
}
