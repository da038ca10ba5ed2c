// libtorch baseline: MLP 784-512-512-10, batch 128, Adam, one intra-op thread.
#include <torch/torch.h>

#include <memory>

namespace {
struct Net : torch::nn::Module {
  torch::nn::Linear l1{nullptr}, l2{nullptr}, l3{nullptr};
  Net() {
    l1 = register_module("l1", torch::nn::Linear(784, 512));
    l2 = register_module("l2", torch::nn::Linear(512, 512));
    l3 = register_module("l3", torch::nn::Linear(512, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(l1->forward(x));
    x = torch::relu(l2->forward(x));
    return l3->forward(x);
  }
};
struct State {
  std::shared_ptr<Net> net;
  std::unique_ptr<torch::optim::Adam> opt;
  torch::Tensor x, y;
};
State* g_state = nullptr;
}  // namespace

void torch_mlp_setup(const float* x, const int64_t* y, int batch) {
  torch::set_num_threads(1);
  torch::manual_seed(0);
  g_state = new State();
  g_state->net = std::make_shared<Net>();
  g_state->opt = std::make_unique<torch::optim::Adam>(g_state->net->parameters(), torch::optim::AdamOptions(1e-3));
  g_state->x = torch::from_blob(const_cast<float*>(x), {batch, 784}, torch::kFloat32).clone();
  g_state->y = torch::from_blob(const_cast<int64_t*>(y), {batch}, torch::kInt64).clone();
}

float torch_mlp_step() {
  auto& s = *g_state;
  s.opt->zero_grad();
  auto loss = torch::nn::functional::cross_entropy(s.net->forward(s.x), s.y);
  loss.backward();
  s.opt->step();
  return loss.item<float>();
}
