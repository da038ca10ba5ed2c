#include "metrics.h"

void RunningMean::add(const torch::Tensor& loss) {
  sum += loss.item<double>();
  ++n;
}

double accuracy(const torch::Tensor& logits, const torch::Tensor& target) {
  return logits.argmax(1).eq(target).to(torch::kFloat).mean().item<double>();
}
