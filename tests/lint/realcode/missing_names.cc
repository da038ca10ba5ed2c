// A trainer whose settings come from a command-line library that is not
// installed: without its header, the settings class would be invalid, and so
// would the training loop that reads it, with its per-step loss read.
// Declarations made up for the library's names keep both.
#include <torch/torch.h>
#include <cxxopts.hpp>

struct Settings {
  cxxopts::ParseResult opts;
  explicit Settings(cxxopts::ParseResult r) : opts(r) {}
  int epochs() { return opts["epochs"].as<int>(); }
  int batchSize() { return opts["batch-size"].as<int>(); }
};

struct Trainer {
  Settings settings;
  torch::nn::Linear net{8, 1};
  explicit Trainer(cxxopts::ParseResult r) : settings(r) {}
  void train(torch::Device device) {
    torch::optim::SGD opt(net->parameters(), 0.1);
    for (int epoch = 0; epoch < settings.epochs(); ++epoch) {
      double total = 0;
      for (int step = 0; step < 100; ++step) {
        torch::Tensor loss = net->forward(torch::ones({settings.batchSize(), 8}, device)).pow(2).mean();
        opt.zero_grad();
        loss.backward();
        opt.step();
        total += loss.item<double>();
      }
      std::cout << "epoch " << epoch << ": " << total << std::endl;
    }
  }
};

int main(int argc, char **argv) {
  using namespace cxxopts;
  Options options("train", "a trainer");
  options.add_options()("e,epochs", "epochs", value<int>()->default_value("10"));
  Trainer trainer(options.parse(argc, argv));
  trainer.train(torch::kCUDA);
}
