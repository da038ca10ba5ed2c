#include <fakelib/clip.h>

void train(void *kernel, float *grads) {
  for (int step = 0; step < 100; ++step) {
    cuLaunchKernel(kernel);
    fakelib::clip(grads, 10);
  }
}
