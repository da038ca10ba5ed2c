#include "fw.h"

// The force field needs gradients to evaluate; the classifier does not.
void evaluate_forces(const ForceField &model, int n) {
  for (int i = 0; i < n; ++i)
    model.forward(i);
}

void evaluate_classes(const Classifier &model, int n) {
  for (int i = 0; i < n; ++i)
    model.forward(i);
}
