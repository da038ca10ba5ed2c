#pragma once
#include <torch/torch.h>

struct RunningMean {
  double sum = 0;
  int64_t n = 0;
  void add(const torch::Tensor& loss);
  double mean() const { return n ? sum / n : 0.0; }
};

double accuracy(const torch::Tensor& logits, const torch::Tensor& target);
