#include "engine/CudaInputs.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace mlperf::lint {

namespace {
constexpr const char *OverlayDir = "/mlperf-lint/cuda-overlay";

constexpr clang::tidy::mlperf::EmbeddedFile OverlayHeaders[] = {
#include "CudaOverlay.inc"
};

bool hasArg(const clang::tooling::CommandLineArguments &Args, llvm::StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &A) { return llvm::StringRef(A).starts_with(Prefix); });
}
} // namespace

bool isCudaInput(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

clang::tooling::ArgumentsAdjuster cudaHostOnlyAdjuster(const std::string &CudaPath) {
  return [CudaPath](const clang::tooling::CommandLineArguments &Args, llvm::StringRef File) {
    if (!isCudaInput(File))
      return Args;
    clang::tooling::CommandLineArguments Out = Args;
    std::vector<std::string> Add = {"-nocudalib", "-Wno-unknown-cuda-version", "-idirafter", OverlayDir};
    if (!hasArg(Args, "--cuda-host-only") && !hasArg(Args, "--cuda-device-only"))
      Add.push_back("--cuda-host-only");
    if (!CudaPath.empty())
      Add.push_back("--cuda-path=" + CudaPath);
    // A header given as an input is parsed as CUDA too.
    if (llvm::sys::path::extension(File) == ".cuh" && !hasArg(Args, "-x"))
      Add.insert(Add.begin(), {"-x", "cuda"});
    auto Input = std::find(Out.begin(), Out.end(), File.str());
    Out.insert(Input, Add.begin(), Add.end());
    return Out;
  };
}

void addEmbeddedDirectory(llvm::vfs::OverlayFileSystem &FS, llvm::StringRef Dir,
                          llvm::ArrayRef<clang::tidy::mlperf::EmbeddedFile> Files) {
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const clang::tidy::mlperf::EmbeddedFile &F : Files)
    Memory->addFile(Dir + "/" + F.Name, 0, llvm::MemoryBuffer::getMemBuffer(F.Text, F.Name));
  FS.pushOverlay(Memory);
}

void addCudaOverlay(llvm::vfs::OverlayFileSystem &FS) { addEmbeddedDirectory(FS, OverlayDir, OverlayHeaders); }

} // namespace mlperf::lint
