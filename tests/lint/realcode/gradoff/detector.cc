#include "fw.h"

// Runs the model per image with gradients on, unless its caller turned them off.
void detect_all(const fw::Model &m, int n) {
  for (int i = 0; i < n; ++i)
    m.forward(i);
}
