// How many files to lint at once when -j is not given: one per core, but no
// more than the available memory holds (a libtorch translation unit peaks
// near 700 MB).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlperf::lint {

inline constexpr uint64_t BytesPerJob = 700ull << 20;

/// MemAvailable of a /proc/meminfo text, in bytes.
std::optional<uint64_t> memAvailable(llvm::StringRef Meminfo);
/// MemAvailable of this machine, when /proc/meminfo can be read.
std::optional<uint64_t> memAvailable();

struct JobChoice {
  unsigned Jobs;
  std::string Note; // one line when memory lowered the count, else empty
};

/// min(cores, files), lowered to what \p Available bytes hold (at least 1).
JobChoice defaultJobs(unsigned Cores, size_t Files, std::optional<uint64_t> Available);

} // namespace mlperf::lint
