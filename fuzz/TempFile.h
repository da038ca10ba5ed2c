// For parsers that read a file: the fuzz input written to one temporary file
// per process (in /dev/shm when there is one), rewritten for every input.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace mlperf::fuzz {

inline std::string writeInput(const uint8_t *Data, size_t Size, const char *Suffix) {
  static const std::string Path = std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/mlperf-fuzz-" +
                                  std::to_string(getpid()) + Suffix;
  if (FILE *F = std::fopen(Path.c_str(), "wb")) {
    std::fwrite(Data, 1, Size, F);
    std::fclose(F);
  }
  return Path;
}

} // namespace mlperf::fuzz
