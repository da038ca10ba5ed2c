#include "fw.h"

#include <cstdio>

void train(const Model &model) {
  fw::use_gpu();
  each_batch(model, 100, [](const fw::Tensor &loss) {
    fw::backward(loss);
    std::printf("%f\n", loss.item());
  });
}
