#include "loss.h"

void train(torch::nn::Linear &net, torch::optim::SGD &opt, const torch::Tensor &data, long steps) {
  AnchorLoss loss;
  torch::Tensor x = data.to(torch::kCUDA);
  for (long i = 0; i < steps; ++i) {
    torch::Tensor y = loss(net->forward(x));
    y.backward();
    opt.step();
  }
}
