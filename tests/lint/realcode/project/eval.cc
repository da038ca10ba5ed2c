#include "api.h"
#include "staging.h"

// No step runs in this loop: report() is not per step here.
void evaluate() {
  for (int i = 0; i < 10; ++i)
    report();
}
