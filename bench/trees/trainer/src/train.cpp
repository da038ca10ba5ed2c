#include "data.h"
#include "evaluate.h"
#include "loss.h"
#include "metrics.h"
#include "model.h"

#include <iostream>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t features = 32, classes = 4, batch_size = 64;
  std::vector<Batch> train_set = load_samples(4096, features, classes);
  std::vector<Batch> test_set = load_samples(512, features, classes);
  Classifier net(features, 128, classes);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int epoch = 0; epoch < 10; ++epoch) {
    RunningMean mean_loss;
    for (size_t first = 0; first < train_set.size(); first += batch_size) {
      Batch b = make_batch(train_set, first, batch_size, device);
      opt.zero_grad();
      torch::Tensor loss = weighted_loss(net->forward(b.x), b.y, device);
      loss.backward();
      opt.step();
      mean_loss.add(loss);
    }
    std::cout << "epoch " << epoch << " loss " << mean_loss.mean() << " accuracy "
              << evaluate(net, test_set, batch_size, device) << "\n";
  }
}
