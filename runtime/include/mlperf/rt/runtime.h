#pragma once
// Umbrella header of the mlperf-lint bundled runtime.
#include "mlperf/rt/autodiff.h"
#include "mlperf/rt/backend.h"
#include "mlperf/rt/backend_interface.h"
#include "mlperf/rt/context.h"
#include "mlperf/rt/dataset.h"
#include "mlperf/rt/dtype.h"
#include "mlperf/rt/error.h"
#include "mlperf/rt/exec.h"
#include "mlperf/rt/graph.h"
#include "mlperf/rt/ops.h"
#include "mlperf/rt/rng.h"
#include "mlperf/rt/tensor.h"
