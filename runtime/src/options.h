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

}  // namespace mlperf::rt::options
