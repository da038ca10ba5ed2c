#include "api.h"
#include "staging.h"
#include "third_party/fastlog/fastlog.h"

void train(void *kernel) {
  for (int i = 0; i < 100; ++i) {
    train_step(kernel);
    cudaDeviceSynchronize();
    report();
    fastlog::flush();
  }
  summary();
}
