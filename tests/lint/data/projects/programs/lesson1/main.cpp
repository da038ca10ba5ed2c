#include "trainer.h"

int main() {
  float loss = 0;
  void *kernel = nullptr;
  for (int epoch = 0; epoch < 10; ++epoch)
    train_step(kernel, &loss);
  return 0;
}
