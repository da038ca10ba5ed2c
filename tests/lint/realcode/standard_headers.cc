// A file written against an older standard library, which brought in
// <fstream>, <iostream> and <iomanip> through <string>: it uses std::ifstream,
// std::cout and std::setw without including their headers. The linter includes them and
// analyses the file as its author compiled it.
#include <string>

#include "cuda_decls.h"

int train(void *k, const std::string &log_path) {
  std::ifstream log(log_path);
  std::string line;
  int steps = 0;
  while (std::getline(log, line))
    ++steps;
  for (int i = 0; i < steps; ++i) {
    cuLaunchKernel(k);
    cudaDeviceSynchronize();
  }
  std::cout << std::setw(6) << steps << " steps\n";
  return steps;
}
