#include "fw.h"

// Builds its loader on every call, then runs the model in its own loop.
float train_epoch(const Model &model, int batches) {
  fw::Loader loader(batches);
  float sum = 0;
  for (int i = 0; i < loader.size(); ++i)
    sum += model.forward(i);
  return sum;
}

void warm_up(const Model &model) {
  fw::Loader loader(1);
  for (int i = 0; i < loader.size(); ++i)
    model.forward(i);
}
