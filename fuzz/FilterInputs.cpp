#include "FilterInputs.h"

#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace mlperf::fuzz {

namespace {
constexpr const char *Source = "void f();\n"
                               "void train() {\n"
                               "  for (int i = 0; i < 10; ++i)\n"
                               "    f();\n"
                               "}\n";

void writeFile(const std::string &Path, const void *Data, size_t Size) {
  if (FILE *F = std::fopen(Path.c_str(), "wb")) {
    std::fwrite(Data, 1, Size, F);
    std::fclose(F);
  }
}

clang::tidy::ClangTidyError finding(const std::string &Check, const std::string &File, unsigned Offset) {
  clang::tidy::ClangTidyError E(Check, clang::tidy::ClangTidyError::Warning, "", false);
  E.Message.Message = "a finding";
  E.Message.FilePath = File;
  E.Message.FileOffset = Offset;
  return E;
}
} // namespace

const std::string &filterDir() {
  static const std::string Dir = [] {
    std::string D = std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/mlperf-fuzz-filter-" +
                    std::to_string(getpid());
    mkdir(D.c_str(), 0700);
    writeFile(D + "/s.cc", Source, std::char_traits<char>::length(Source));
    return D;
  }();
  return Dir;
}

std::vector<clang::tidy::ClangTidyError> sampleFindings() {
  std::string S = filterDir() + "/s.cc";
  std::vector<clang::tidy::ClangTidyError> Out;
  for (unsigned Offset : {0u, 12u, 30u, 60u, 64u, 1000u, 4294967295u}) {
    Out.push_back(finding("mlperf-sync-in-loop", S, Offset));
    Out.push_back(finding("mlperf-alloc-in-loop", S, Offset));
  }
  Out.push_back(finding("mlperf-sync-in-loop", filterDir() + "/missing.cc", 3));
  Out.push_back(finding("mlperf-sync-in-loop", "", 0));
  Out.push_back(clang::tidy::ClangTidyError("clang-diagnostic-error", clang::tidy::ClangTidyError::Error, "", false));
  return Out;
}

std::string writeFilterInput(const uint8_t *Data, size_t Size, const char *Name) {
  std::string Path = filterDir() + "/" + Name;
  writeFile(Path, Data, Size);
  return Path;
}

} // namespace mlperf::fuzz
