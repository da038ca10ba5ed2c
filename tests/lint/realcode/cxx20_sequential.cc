// A libtorch program built as C++20 (its CMakeLists.txt says so) that runs a
// torch::nn::Sequential: clang 19 cannot instantiate libstdc++'s C++20
// constexpr std::vector<c10::IValue> where libtorch's headers use it, so the
// file parses only with those containers not constexpr.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::nn::Sequential net(torch::nn::Linear(8, 8), torch::nn::ReLU(), torch::nn::Linear(8, 1));
  torch::Device device(torch::kCUDA);
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    torch::Tensor x = torch::randn({16, 8}, device);
    torch::Tensor loss = net->forward(x).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<float>() << "\n";
  }
  return 0;
}
