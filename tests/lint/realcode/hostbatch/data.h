// A data class that hands out batches as a struct of tensors, defined in
// data.cc: the training loop in train.cc cannot see where they live.
#pragma once
#include <mini_torch.h>

struct Batch {
  torch::Tensor x, y;
};

class Loader {
public:
  explicit Loader(long n);
  Batch next(long bs);

private:
  torch::Tensor xs_, ys_;
  long pos_ = 0;
};
