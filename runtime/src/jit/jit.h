#pragma once
// In-process JIT: C source -> clang 19 (libclang-cpp) -> LLVM IR at -O3 for an explicit
// target CPU -> ORC LLJIT -> function pointers. One compile() call compiles its kernels as a
// single translation unit. With options::KernelCache::Process kernels are cached by source for
// the life of the process; by default (Executable) every call compiles all its kernels into a
// JITDylib of its own, freed when the Result's `module` goes. With a persistent cache directory
// (MLPERF_KERNEL_CACHE_DIR) the object code of each translation unit is also stored on disk and
// loaded by later processes instead of compiled.
#include <memory>
#include <string>
#include <vector>

namespace mlperf::rt::jit {

struct Source {
  std::string name;  // the C function name defined by code
  std::string code;
};

struct Result {
  std::vector<void*> fns;  // one per requested source, in order
  double seconds = 0;      // wall time spent compiling (0 when everything was cached)
  // Its parts: driver/invocation setup (a persistent-cache read), clang parse + IR generation +
  // -O3 pipeline (on a cache hit: adding the object), machine-code generation, and linking
  // (relocation and symbol lookup).
  double setup_seconds = 0, frontend_seconds = 0, codegen_seconds = 0, link_seconds = 0;
  int compiled = 0, cached = 0;
  // The persistent cache (options::kernel_cache_dir) held the object: no clang, no codegen;
  // disk_original_seconds is what compiling it took when it was stored.
  bool from_disk = false;
  double disk_original_seconds = 0;
  std::shared_ptr<void> module;  // keeps the kernels of a per-executable compile alive
};

// Throws mlperf::rt::Error with clang's diagnostics and the source on failure.
Result compile(const std::string& prelude, const std::vector<Source>& kernels);

// The target CPU passed to clang (-march=...), e.g. "skylake-avx512".
std::string target_cpu();
// Kernels held by the process-wide cache.
size_t cache_size();

}  // namespace mlperf::rt::jit
