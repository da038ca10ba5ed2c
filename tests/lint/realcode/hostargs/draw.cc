#include "detect.h"

float draw(const torch::Tensor &boxes) {
  float total = 0;
  for (long i = 0; i < boxes.size(0); ++i)
    total += boxes[i].item();
  return total;
}
