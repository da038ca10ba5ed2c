#include "runner.h"

void Runner::ProcessBatch(Batch &batch) {
  fw::NoGradGuard no_grad;
  model.forward(batch.index);
}
