#include "fw.h"

int main() {
  Model model;
  warm_up(model);
  float last = 0;
  for (int epoch = 0; epoch < 10; ++epoch)
    last = train_epoch(model, 100);
  return last > 0;
}
