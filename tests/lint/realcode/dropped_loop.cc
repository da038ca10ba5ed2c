// A dataset with a member from a header that is not installed: clang drops
// the range-for over its loader, and the training step with it. The epoch
// loop that remains only previews a sample; it is not an inference loop and
// is not reported. The evaluation loop, which is complete, is.
// (With complete/ on the include path the loader's loop is there. The
// header's type is a template of a value, `Frame<3>`, which no made-up
// declaration of a missing header's names fits.)
#include <torch/torch.h>

enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
#include "vision/frame.h"

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

struct Images : torch::data::datasets::Dataset<Images> {
  vision::Frame<3> image;
  torch::data::Example<> get(size_t) override { return {torch::zeros({8}), torch::zeros({1})}; }
  torch::optional<size_t> size() const override { return 4; }
};

double fit(Net &net, torch::Device device) {
  auto loader = torch::data::make_data_loader(Images().map(torch::data::transforms::Stack<>()), 4);
  torch::optim::SGD opt(net.parameters(), 0.1);
  double preview_sum = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      opt.zero_grad();
      net.forward(batch.data.to(device)).pow(2).mean().backward();
      opt.step();
    }
    torch::Tensor preview = net.forward(torch::ones({1, 8}, device));
    preview_sum += preview.sum().item<double>();
  }
  return preview_sum;
}

double evaluate(Net &net, const std::vector<torch::Tensor> &batches) {
  double sum = 0;
  for (const auto &b : batches)
    sum += net.forward(b).sum().item<double>();
  return sum;
}

int main() {
  Net net;
  torch::Device device(torch::kCUDA);
  net.to(device);
  return fit(net, device) + evaluate(net, {torch::ones({4, 8}, device)}) > 0;
}
