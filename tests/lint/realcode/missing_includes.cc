// Third-party headers that are not installed: the loop is still analysed.
#include <matplotlibcpp.h>
#include "opencv2/opencv.hpp"
#include "cuda_decls.h"

namespace plt = matplotlibcpp;

void train(void *k) {
  cv::Mat canvas;
  for (int i = 0; i < 10; ++i) {
    cuLaunchKernel(k);
    cudaDeviceSynchronize();
    plt::plot(i, canvas);
  }
  plt::show();
}
