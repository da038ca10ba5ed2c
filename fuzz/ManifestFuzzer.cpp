// Fixture manifests (`fixtures/*/manifest.json`): loaded or rejected.
#include "TempFile.h"
#include "validate/Manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto M = mlperf::validate::loadManifest(mlperf::fuzz::writeInput(Data, Size, "-manifest.json"));
  if (!M) {
    llvm::consumeError(M.takeError());
    return 0;
  }
  for (const mlperf::validate::FixturePair &P : M->Pairs) {
    (void)mlperf::validate::programName(*M, P, true);
    (void)mlperf::validate::programName(*M, P, false);
  }
  return 0;
}
