#include <vgg.h>

int main() {
  Vgg net;
  for (int i = 0; i < 10; ++i) {
    net.forward();
    cudaDeviceSynchronize();
  }
  return 0;
}
