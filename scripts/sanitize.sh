#!/usr/bin/env bash
# Builds mlperf-lint and its tests with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-asan/ and runs the tests there.
# Usage: scripts/sanitize.sh [gtest filter]   (default: every lint test; the
# fixture programs are not built, so tests that run them skip or fail)
# Recorded results: FUZZING.md, "Sanitizers".
set -euo pipefail
cd "$(dirname "$0")/.."
export CC="${CC:-clang-19}" CXX="${CXX:-clang++-19}"
FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS="$FLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DMLPERF_BUILD_BENCHMARKS=OFF -DMLPERF_BUILD_FIXTURES=OFF >/dev/null
fi
ninja -C build-asan -j"${JOBS:-2}" mlperf-lint lint_tests
# LLVM's crash recovery (a crashing translation unit is reported, not fatal)
# needs SIGSEGV for itself; leaks at exit are LLVM's deliberate ones (options
# registered once, a crashed translation unit's AST).
export ASAN_OPTIONS="handle_segv=0:handle_sigbus=0:allow_user_segv_handler=1:detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
build-asan/tests/lint/lint_tests --gtest_filter="${1:-*}"
