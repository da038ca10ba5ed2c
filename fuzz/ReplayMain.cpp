// Runs a fuzz target's LLVMFuzzerTestOneInput once on every file of the
// given files and directories (a corpus), without libFuzzer: the regression
// run in ctest. A crash fails the test; the file being run is printed first.
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

int main(int Argc, char **Argv) {
  std::vector<std::string> Inputs;
  for (int I = 1; I < Argc; ++I) {
    std::error_code EC;
    if (!llvm::sys::fs::is_directory(Argv[I])) {
      Inputs.push_back(Argv[I]);
      continue;
    }
    for (llvm::sys::fs::directory_iterator It(Argv[I], EC), End; It != End && !EC; It.increment(EC))
      if (llvm::sys::fs::is_regular_file(It->path()))
        Inputs.push_back(It->path());
  }
  std::sort(Inputs.begin(), Inputs.end());
  if (Inputs.empty()) {
    llvm::errs() << "fuzz replay: no inputs\n";
    return 2;
  }
  for (const std::string &Path : Inputs) {
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf) {
      llvm::errs() << Path << ": cannot read: " << Buf.getError().message() << "\n";
      return 2;
    }
    llvm::errs() << "running " << Path << "\n";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()), (*Buf)->getBufferSize());
  }
  llvm::errs() << "fuzz replay: " << Inputs.size() << " input(s) ran\n";
  return 0;
}
