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

/// A parsed file held while the whole-project facts settle (engine/Settling.h):
/// its AST, without the parse's peak (six libtorch files of bench/trees/trainer
/// held at once, no preamble: 3.5 GB peak, against 1.3 GB one at a time).
inline constexpr uint64_t BytesPerHeldFile = 600ull << 20;

/// How many parsed files a whole-project run holds at once: \p Asked
/// (--files-in-memory) when set, else as many as half of \p Available holds
/// (16 when it is not known); never fewer than \p Jobs.
unsigned filesInMemory(unsigned Asked, unsigned Jobs, std::optional<uint64_t> Available);

} // namespace mlperf::lint
