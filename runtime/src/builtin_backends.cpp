#include <mutex>

#include "mlperf/rt/backend_interface.h"

namespace mlperf::rt {

void register_builtin_backends() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_reference_backend();
#ifdef MLPERF_RT_HAVE_CPU
    register_cpu_backend();
#endif
#ifdef MLPERF_RT_HAVE_CUDA
    register_cuda_backend();
#endif
  });
}

}  // namespace mlperf::rt
