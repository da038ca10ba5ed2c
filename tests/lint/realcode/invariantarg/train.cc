#include "api.h"

// The same host table is passed on every step: the same bytes cross the bus each time.
void train(void *kernel, float *device, unsigned long n) {
  float *table = new float[n]();
  for (int i = 0; i < 100; ++i) {
    cuLaunchKernel(kernel);
    upload_table(device, table, n);
  }
  delete[] table;
}
