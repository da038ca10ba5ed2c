#include "data.h"

void train(torch::nn::Linear &net, torch::optim::SGD &opt, Loader &loader, float *labels, long steps) {
  for (long i = 0; i < steps; ++i) {
    Batch b = loader.next(64);
    labels[i] = b.y[0].item();
    torch::Tensor y = net->forward(b.x.to(torch::kCUDA));
    y.backward();
    opt.step();
  }
}
