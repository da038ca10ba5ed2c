#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc1 = register_module("fc1", torch::nn::Linear(784, 64)); fc2 = register_module("fc2", torch::nn::Linear(64, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

float log_loss(const torch::Tensor &loss) { return loss.item<float>(); }

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Net>();
  model->to(device);
  torch::Tensor weights = torch::ones({10});
  for (int epoch = 0; epoch < 3; ++epoch) {
    torch::optim::SGD opt(model->parameters(), 0.1);
    float total = 0;
    for (int step = 0; step < 100; ++step) {
      auto x = torch::randn({32, 784}).to(device);
      auto y = torch::randint(0, 10, {32}).to(device);
      auto w = weights.to(device);
      opt.zero_grad();
      auto loss = torch::nll_loss(torch::log_softmax(model->forward(x), 1), y, w);
      loss.backward();
      opt.step();
      total += loss.item<float>();
      if (step % 10 == 0)
        std::cout << loss.item<float>() << std::endl;
      torch::cuda::synchronize();
      log_loss(loss);
    }
    std::cout << "epoch " << total << " " << weights.sum().item<float>() << std::endl;
  }
}
