#include "api.h"

void report() {
  cudaDeviceSynchronize();
}

void summary() {
  cudaDeviceSynchronize();
}
