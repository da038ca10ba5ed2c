#include "trainer.h"

// The same name as lesson1's, another program: it only launches.
void train_step(void *kernel, float *loss) {
  cuLaunchKernel(kernel);
  *loss = 0;
}
