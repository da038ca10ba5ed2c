// `.mlperf-lint` and `--config` YAML: parsed and validated (checks, options,
// regexes, profiles), or rejected with one line naming the source.
#include "project/Config.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  mlperf::lint::ConfigRequest R;
  R.ConfigText = std::string(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Warnings;
  auto Providers = mlperf::lint::makeOptionsProviders(R, {"/fuzz/x.cc"}, &Warnings);
  if (!Providers) {
    std::string Message = llvm::toString(Providers.takeError());
    if (Message.find('\n') != std::string::npos)
      __builtin_trap(); // one line
    return 0;
  }
  auto Provider = (*Providers)();
  (void)Provider->getOptions("/fuzz/x.cc");
  return 0;
}
