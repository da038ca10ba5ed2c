#include "detect.h"

std::vector<torch::Tensor> detect(torch::nn::Linear &net, const torch::Tensor &frame) {
  torch::Tensor out = net->forward(frame.to(torch::kCUDA));
  std::vector<torch::Tensor> kept;
  kept.push_back(out.cpu());
  return kept;
}
