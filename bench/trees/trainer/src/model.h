#pragma once
#include <torch/torch.h>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl(int64_t in, int64_t hidden, int64_t classes);
  torch::Tensor forward(const torch::Tensor& x);
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Classifier);
