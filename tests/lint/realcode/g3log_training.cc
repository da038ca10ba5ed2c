// The same loop logging through g3log, linted where g3log is not installed.
#include <g3log/g3log.hpp>
#include <g3log/logworker.hpp>
#include <mini_torch.h>

void train(torch::nn::Linear &model, torch::optim::SGD &opt, const torch::Tensor &x, const torch::Tensor &y) {
  auto worker = g3::LogWorker::createLogWorker();
  g3::initializeLogging(worker.get());
  model->to(torch::kCUDA);
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    auto loss = (model(x) + y).sum();
    loss.backward();
    opt.step();
    LOG(INFO) << "step " << step << " loss " << loss.item();
    LOGF(INFO, "loss %f", loss.item());
  }
}
