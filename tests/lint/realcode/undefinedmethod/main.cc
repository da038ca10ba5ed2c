#include "detector.h"

int main() {
  Detector detector(16);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float sum = 0;
  for (int frame = 0; frame < 100; ++frame)
    sum += detector.run(stream);
  return sum > 0;
}
