#include "runner.h"

#include <cstdio>

class Trainer : public Runner {
public:
  void ProcessBatch(Batch &batch) override {
    fw::use_gpu();
    fw::Tensor loss = model.forward(batch.index);
    fw::backward(loss);
    std::printf("loss %f\n", loss.item());
  }
};
