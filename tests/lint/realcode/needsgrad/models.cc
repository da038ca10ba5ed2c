#include "fw.h"

fw::Tensor ForceField::forward(int structure) const {
  fw::Tensor energy, positions;
  return fw::grad(energy, positions);
}

fw::Tensor Classifier::forward(int image) const { return {}; }
