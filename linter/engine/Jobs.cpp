#include "engine/Jobs.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace mlperf::lint {

std::optional<uint64_t> memAvailable(llvm::StringRef Meminfo) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Meminfo.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front("MemAvailable:"))
      continue;
    llvm::StringRef Number = Line.trim();
    bool KiB = Number.consume_back("kB");
    uint64_t N;
    if (Number.trim().getAsInteger(10, N))
      return std::nullopt;
    return KiB ? N * 1024 : N;
  }
  return std::nullopt;
}

std::optional<uint64_t> memAvailable() {
  auto Buf = llvm::MemoryBuffer::getFileAsStream("/proc/meminfo");
  if (!Buf)
    return std::nullopt;
  return memAvailable((*Buf)->getBuffer());
}

JobChoice defaultJobs(unsigned Cores, size_t Files, std::optional<uint64_t> Available) {
  unsigned Wanted = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(std::max(Cores, 1u), Files)));
  if (!Available)
    return {Wanted, ""};
  unsigned Fit = static_cast<unsigned>(std::max<uint64_t>(1, *Available / BytesPerJob));
  if (Fit >= Wanted)
    return {Wanted, ""};
  return {Fit, "running " + std::to_string(Fit) + " job(s) instead of " + std::to_string(Wanted) + ": " +
                   std::to_string(*Available >> 20) + " MB of memory available, about " +
                   std::to_string(BytesPerJob >> 20) + " MB per file (-j to choose)"};
}

unsigned filesInMemory(unsigned Asked, unsigned Jobs, std::optional<uint64_t> Available) {
  uint64_t Files = Asked ? Asked : Available ? *Available / 2 / BytesPerHeldFile : 16;
  return static_cast<unsigned>(std::clamp<uint64_t>(Files, std::max(Jobs, 1u), 4096));
}

} // namespace mlperf::lint
