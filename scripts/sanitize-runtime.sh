#!/usr/bin/env bash
# ThreadSanitizer on the runtime's threads: the stream (ordering, in-flight bound, stream-ordered
# reuse, OOM retry), the Prefetcher and the cpu backend's thread pool.
# Usage: scripts/sanitize-runtime.sh [extra gtest filter]   (builds into build-tsan/)
# The JIT-compiled kernels are not instrumented (they touch only their own arguments); the
# process-wide LLVM/clang libraries are not instrumented either.
set -euo pipefail
cd "$(dirname "$0")/.."
export CC="${CC:-clang-19}" CXX="${CXX:-clang++-19}"
if [ ! -f build-tsan/build.ninja ]; then
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMLPERF_BUILD_LINTER=OFF \
    -DMLPERF_BUILD_BENCHMARKS=OFF -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
fi
ninja -C build-tsan -j"${JOBS:-2}" runtime_tests
FILTER="${1:-*Ordering*:*Fidelity*:*Datasets*Prefetcher*:*Memory*:Jit.ThreadCounts*:*Training*}"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
  build-tsan/tests/runtime/runtime_tests --gtest_filter="$FILTER" --gtest_brief=1
