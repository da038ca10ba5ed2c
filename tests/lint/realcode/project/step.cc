#include "api.h"

void train_step(void *kernel) { cuLaunchKernel(kernel); }
