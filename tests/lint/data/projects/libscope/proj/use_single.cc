#define SINGLE_SYNC_IMPLEMENTATION
#include "single_sync.h"

void run(void *kernel) { single_sync_run(kernel, 100); }
