#include "data.h"

Loader::Loader(long n) : xs_(torch::zeros(n * 16)), ys_(torch::zeros(n)) {}

Batch Loader::next(long bs) {
  torch::Tensor x = xs_.narrow(0, pos_, bs);
  torch::Tensor y = ys_.narrow(0, pos_, bs);
  pos_ += bs;
  return {x, y};
}
