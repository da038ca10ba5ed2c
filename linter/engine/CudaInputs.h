// CUDA inputs (.cu, .cuh) are linted host-only: clang parses the host side
// of the file against the CUDA toolkit's headers, with no device compilation
// and no libdevice. A small overlay, searched last, supplies the headers that
// clang 19's CUDA wrapper includes but that newer toolkits no longer ship.
#pragma once

#include "Embedded.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>

namespace mlperf::lint {

bool isCudaInput(llvm::StringRef File);

/// Adds --cuda-host-only, -nocudalib, the overlay and, when \p CudaPath is
/// set, --cuda-path to the commands of CUDA inputs.
clang::tooling::ArgumentsAdjuster cudaHostOnlyAdjuster(const std::string &CudaPath);

/// \p Text with each kernel launch's brackets spelled as clang lexes them:
/// `k << <grid, block >> > (x)`, which Visual Studio's formatter writes and
/// nvcc accepts, becomes `k <<< grid, block >>>  (x)`, of the same length
/// (the spaces move behind the bracket), so that every column stays where it
/// was. Only a `>> >` that closes a launch opened earlier in the same
/// statement changes; a template's `>> >` stays.
std::string normalizeLaunchBrackets(llvm::StringRef Text);

/// \p Base, with the CUDA inputs it reads (.cu, .cuh) given normalized
/// launch brackets.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
cudaSpellingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

/// Makes the overlay's directory visible through \p FS.
void addCudaOverlay(llvm::vfs::OverlayFileSystem &FS);

/// Makes \p Files (compiled into the binary) visible through \p FS under \p Dir.
void addEmbeddedDirectory(llvm::vfs::OverlayFileSystem &FS, llvm::StringRef Dir,
                          llvm::ArrayRef<clang::tidy::mlperf::EmbeddedFile> Files);

} // namespace mlperf::lint
