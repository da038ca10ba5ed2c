#include "loss.h"

torch::Tensor weighted_loss(const torch::Tensor& logits, const torch::Tensor& target, torch::Device device) {
  // The same weights, built on the host and copied to the device on every call.
  torch::Tensor weights = torch::tensor({1.0, 2.0, 1.0, 0.5}).to(device);
  return torch::nn::functional::cross_entropy(logits, target,
                                              torch::nn::functional::CrossEntropyFuncOptions().weight(weights));
}
