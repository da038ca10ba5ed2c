#include "fw.h"

int main() {
  fw::Model m;
  fw::NoGradGuard no_grad;
  detect_all(m, 100);
}
