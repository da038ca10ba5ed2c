#include "evaluate.h"
#include "metrics.h"

double evaluate(Classifier& net, const std::vector<Batch>& samples, int64_t batch_size, torch::Device device) {
  net->eval();
  double total = 0;
  int64_t batches = 0;
  for (size_t first = 0; first < samples.size(); first += batch_size) {
    Batch b = make_batch(samples, first, batch_size, device);
    total += accuracy(net->forward(b.x), b.y);
    ++batches;
  }
  net->train();
  return batches ? total / batches : 0.0;
}
