#include "fw.h"

void each_batch(const Model &model, int batches, const std::function<void(const fw::Tensor &)> &on_loss) {
  for (int i = 0; i < batches; ++i)
    on_loss(model.forward(i));
}
