#include <mlqm/sampler.h>

int main() {
  for (int sweep = 0; sweep < 100; ++sweep) {
    mlqm::sample(nullptr);
    cudaDeviceSynchronize();
  }
  return 0;
}
