#include "fw.h"
#include <vector>

// One model per checkpoint: each iteration loads its own.
float compare(const std::vector<std::string> &paths) {
  float total = 0;
  for (const std::string &path : paths) {
    Model model = make_model(8);
    fw::load(model, path);
    for (int batch = 0; batch < 4; ++batch)
      total += model.forward(batch);
  }
  return total;
}
