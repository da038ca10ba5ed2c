#pragma once
// In-process JIT: C source -> clang 19 (libclang-cpp) -> LLVM IR at -O3 for an explicit
// target CPU -> object code -> ORC LLJIT -> function pointers. One compile() call splits its
// kernels into options::jit_modules() translation units of about equal cost, compiles them at
// once on a pool of options::jit_threads() threads and links their objects into one JITDylib.
// With options::KernelCache::Process kernels are cached by source for
// the life of the process; by default (Executable) every call compiles all its kernels into a
// JITDylib of its own, freed when the Result's `module` goes. With a persistent cache directory
// (MLPERF_KERNEL_CACHE_DIR) the object code of each translation unit is also stored on disk and
// loaded by later processes instead of compiled.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mlperf::rt::jit {

struct Source {
  std::string name;  // the C function name defined by code
  std::string code;
  double weight = 1;  // relative compile cost, to balance the modules (the cpu backend: bytes x opt level)
};

// One translation unit of a compile.
struct ModuleTiming {
  int kernels = 0;
  size_t object_bytes = 0;
  bool from_disk = false;
  double frontend_seconds = 0, codegen_seconds = 0;  // on a disk hit: reading and verifying it
  double cpu_seconds = 0;  // CPU time of its thread for all of it (below the wall times on a busy machine)
};

struct Result {
  std::vector<void*> fns;  // one per requested source, in order
  double seconds = 0;      // wall time spent compiling (0 when everything was cached)
  // Its parts: the modules compiled on the pool (wall), then adding their objects, relocation
  // and symbol lookup (link). Per module, the time of clang (parse, IR, -O3) and of machine-code
  // generation; their sums over the modules exceed `modules_seconds` when they ran at once.
  double modules_seconds = 0, link_seconds = 0;
  double frontend_seconds = 0, codegen_seconds = 0, cpu_seconds = 0;  // sums over `modules`
  std::vector<ModuleTiming> modules;
  int threads = 1;
  int compiled = 0, cached = 0;
  // The persistent cache (options::kernel_cache_dir) held every module's object: no clang, no
  // codegen; disk_original_seconds is what compiling them took when they were stored.
  bool from_disk = false;
  int disk_modules = 0;
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
