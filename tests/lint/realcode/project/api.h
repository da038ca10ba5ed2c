// The project's functions, each defined in its own file.
#pragma once
#include "../cuda_decls.h"

void train_step(void *kernel);  // step.cc: launches the kernel
void report();                  // metrics.cc: waits for the device
void summary();                 // metrics.cc: waits for the device, called once
