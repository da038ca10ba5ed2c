// An evaluation loop and a small request loop for a trained classifier.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Classifier : torch::nn::Module {
  Classifier() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(32, 64), torch::nn::ReLU(),
                                                         torch::nn::Linear(64, 4)));
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};

// Evaluation: accuracy is read back every batch only to be summed.
double evaluate(Classifier &model, const std::vector<torch::Tensor> &batches, torch::Device device) {
  model.eval();
  double correct = 0;
  for (const auto &batch : batches) {
    auto logits = model.forward(batch.to(device));
    correct += logits.argmax(1).eq(0).sum().item<double>();
  }
  return correct;
}

// Serving: each answer goes back to the caller; that copy is the job.
std::vector<int64_t> serve(Classifier &model, const std::vector<torch::Tensor> &requests, torch::Device device) {
  torch::NoGradGuard no_grad;
  std::vector<int64_t> answers;
  for (const auto &request : requests) {
    auto out = model.forward(request.to(device));
    answers.push_back(out.argmax(1).item<int64_t>());
  }
  return answers;
}

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Classifier model;
  model.to(device);
  std::vector<torch::Tensor> batches;
  for (int i = 0; i < 8; ++i)
    batches.push_back(torch::randn({16, 32}));
  std::cout << evaluate(model, batches, device) << "\n";
  std::cout << serve(model, batches, device).size() << "\n";
}
