#pragma once
#include <torch/torch.h>

/// Cross-entropy with per-class weights.
torch::Tensor weighted_loss(const torch::Tensor& logits, const torch::Tensor& target, torch::Device device);
