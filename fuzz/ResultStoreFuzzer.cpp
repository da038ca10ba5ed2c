// The stored validation results (`~/.cache/mlperf-lint/validation.json`),
// which every lint run reads for its measured notes: any content is used or
// rejected with an error, never a crash or an uncaught exception.
#include "TempFile.h"
#include "validate/ResultStore.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto Results = mlperf::validate::loadResults(mlperf::fuzz::writeInput(Data, Size, "-results.json"));
  if (!Results) {
    if (llvm::toString(Results.takeError()).empty())
      __builtin_trap(); // a damaged store is an error that says what is wrong
    return 0;
  }
  for (const char *Engine : {"", "libtorch", "runtime"})
    (void)mlperf::validate::measuredNote(*Results, "mlperf-sync-in-loop", Engine);
  return 0;
}
