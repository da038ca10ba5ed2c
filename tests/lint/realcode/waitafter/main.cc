#include "runner.h"

#include <chrono>
#include <vector>

int main() {
  Runner runner(16);
  std::vector<float> input(16, 1.f), output(16);
  double seconds = 0, last = 0;
  for (int frame = 0; frame < 100; ++frame) {
    auto start = std::chrono::steady_clock::now();
    runner.run(input.data());
    auto stop = std::chrono::steady_clock::now();
    seconds += std::chrono::duration<double>(stop - start).count();
  }
  for (int frame = 0; frame < 100; ++frame) {
    auto start = std::chrono::steady_clock::now();
    runner.run(input.data());
    last = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    runner.copyOut(output.data());
  }
  return seconds + last > 0 && output[0] > 0;
}
