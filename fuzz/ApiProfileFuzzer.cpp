// API profiles (`--profile`, the `Profiles` option): any JSON text is either
// loaded or rejected with an error naming the source; never a crash.
#include "analysis/ApiProfile.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  clang::tidy::mlperf::ApiProfiles Profiles;
  llvm::StringRef Json(reinterpret_cast<const char *>(Data), Size);
  if (llvm::Error E = Profiles.addJson(Json, "fuzz.json")) {
    std::string Message = llvm::toString(std::move(E));
    if (Message.rfind("fuzz.json", 0) != 0)
      __builtin_trap(); // errors name the profile
  }
  return 0;
}
