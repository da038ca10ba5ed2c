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

/// At \p I, a run of \p C, C, spaces, C with at least one space (`<< <`):
/// the index past it, else npos.
size_t spacedTriple(llvm::StringRef Text, size_t I, char C) {
  if (I + 3 >= Text.size() || Text[I] != C || Text[I + 1] != C || Text[I + 2] != ' ')
    return llvm::StringRef::npos;
  size_t J = I + 2;
  while (J < Text.size() && Text[J] == ' ')
    ++J;
  return J < Text.size() && Text[J] == C ? J + 1 : llvm::StringRef::npos;
}

/// Rewrites the run \p I..\p End (`<< <`) as the three brackets and then its spaces.
void packTriple(std::string &Out, size_t I, size_t End, char C) {
  for (size_t K = I; K < End; ++K)
    Out[K] = K < I + 3 ? C : ' ';
}

class CudaSpellingFile : public llvm::vfs::File {
public:
  CudaSpellingFile(std::unique_ptr<llvm::vfs::File> Inner, std::string Text)
      : Inner(std::move(Inner)), Text(std::move(Text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return Inner->status(); }
  llvm::ErrorOr<std::string> getName() override { return Inner->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name, int64_t, bool, bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(Text, Name);
  }
  std::error_code close() override { return Inner->close(); }

private:
  std::unique_ptr<llvm::vfs::File> Inner;
  std::string Text;
};

class CudaSpellingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override {
    auto F = ProxyFileSystem::openFileForRead(Path);
    llvm::SmallString<256> Name;
    if (!F || !isCudaInput(Path.toStringRef(Name)))
      return F;
    auto Buffer = (*F)->getBuffer(Path);
    if (!Buffer)
      return Buffer.getError();
    std::string Text = normalizeLaunchBrackets((*Buffer)->getBuffer());
    return std::unique_ptr<llvm::vfs::File>(std::make_unique<CudaSpellingFile>(std::move(*F), std::move(Text)));
  }
};
} // namespace

std::string normalizeLaunchBrackets(llvm::StringRef Text) {
  std::string Out = Text.str();
  for (size_t I = Text.find("<<"); I != llvm::StringRef::npos; I = Text.find("<<", I + 2)) {
    size_t Open = spacedTriple(Text, I, '<');
    bool Packed = Text.substr(I).starts_with("<<<");
    if (Open == llvm::StringRef::npos && !Packed)
      continue;
    size_t OpenEnd = Packed ? I + 3 : Open;
    size_t StatementEnd = Text.find(';', OpenEnd);
    for (size_t J = Text.find(">>", OpenEnd); J < StatementEnd; J = Text.find(">>", J + 1)) {
      size_t Close = spacedTriple(Text, J, '>');
      if (Close == llvm::StringRef::npos && !Text.substr(J).starts_with(">>>"))
        continue;
      if (Open != llvm::StringRef::npos)
        packTriple(Out, I, Open, '<');
      if (Close != llvm::StringRef::npos)
        packTriple(Out, J, Close, '>');
      break;
    }
    I = OpenEnd - 2;
  }
  return Out;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
cudaSpellingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  return llvm::makeIntrusiveRefCnt<CudaSpellingFileSystem>(std::move(Base));
}

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
