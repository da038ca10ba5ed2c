// A detector whose prediction runs the model, called by another of its
// methods that prepares an image; only main.cc's frame loop calls that one.
#pragma once
#include <mini_torch.h>

class Detector {
public:
  torch::Tensor predictImage(const torch::Tensor &image);

private:
  torch::Tensor prediction(const torch::Tensor &batch);
  torch::nn::Linear net_{4, 6};
};
