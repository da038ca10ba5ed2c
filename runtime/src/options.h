#pragma once
// Runtime options read from the environment, each parsed in one place.
#include <optional>
#include <string>

namespace mlperf::rt::options {

// MLPERF_DUMP: comma-separated stages (graph, fusion, source, compile, profile) or "all".
bool dump_enabled(const char* stage);

// MLPERF_KERNEL_CACHE: where compiled kernels are kept.
//  - Executable ("exec", the default): each executable compiles its own kernels and frees them
//    with it, so a new Exec or a re-compiled (evicted) shape costs a real compile, as with XLA;
//  - Process ("process"): kernels are cached by source for the life of the process, so an
//    identical graph compiled again costs almost nothing (faster, but hides the cost of
//    recompilation from a measurement).
enum class KernelCache { Executable, Process };
KernelCache kernel_cache();  // set_kernel_cache()'s value, else the environment's
// Overrides the environment (tests, benchmarks); nullopt: read the environment again.
void set_kernel_cache(std::optional<KernelCache> mode);

// MLPERF_KERNEL_CACHE_DIR: a directory for the persistent kernel cache (object code keyed by the
// generated source, compiler arguments, target CPU and LLVM version, shared across processes);
// empty (the default): none. Every executable still counts as a compilation in the statistics.
std::string kernel_cache_dir();  // set_kernel_cache_dir()'s value, else the environment's
void set_kernel_cache_dir(std::optional<std::string> dir);

// MLPERF_JIT_THREADS: threads that compile an executable's translation units at once (1 to 256;
// default: the machine's hardware threads up to 8, less the 1-minute load average beyond 1).
// MLPERF_JIT_MODULES: translation units an executable's kernels are split into (1 to 100000;
// default: the thread count). 1 is the single-module compile; a number above the
// kernel count gives one module per kernel, which MLPERF_DUMP=compile then times one by one.
// Anything else is an ArgumentError naming the variable.
int jit_threads();
int jit_modules();
void set_jit_threads(std::optional<int> n);  // overrides the environment; nullopt: read it again
void set_jit_modules(std::optional<int> n);

}  // namespace mlperf::rt::options
