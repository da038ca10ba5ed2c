#include "fw.h"

float train(Net &model, int steps, fw::DeviceType device) {
  model.to(device);
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    fw::Tensor loss = model.forward(i);
    loss.backward();
    total += loss.item();
  }
  return total;
}
