#include <model.h>

int main() {
  Model model;
  for (int step = 0; step < 100; ++step) {
    model.forward();
    cudaDeviceSynchronize();
  }
  return 0;
}
