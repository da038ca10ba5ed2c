#include "cli/Driver.h"

int main(int argc, const char **argv) { return mlperf::lint::runMain(argc, argv); }
