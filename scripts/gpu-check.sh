#!/usr/bin/env bash
# Builds the runtime core and the cuda backend on a GPU machine that has only CMake, a C++
# compiler, the CUDA toolkit and nlohmann/json's headers (no LLVM, no gtest; the headers are
# found without their CMake package), then runs bench/gpu_check.cpp: cuda vs reference on
# random inputs, and a short benchmark table. Budget: well under 10 minutes.
#   scripts/gpu-check.sh [build-dir]        (default: build-gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=$(nproc 2>/dev/null || echo 4)
start=$(date +%s)

echo "== gpu-check: $(uname -n), $(nproc) cpus"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

# OpenBLAS and the cpu backend are optional; they are switched off so the build needs nothing else.
timeout 420 cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DMLPERF_BUILD_LINTER=OFF -DMLPERF_BUILD_TESTS=OFF -DMLPERF_BUILD_BENCHMARKS=ON \
  -DMLPERF_RT_CPU_BACKEND=OFF -DMLPERF_RT_CUDA_BACKEND=ON -DMLPERF_RT_USE_BLAS=OFF \
  -DCUDAToolkit_ROOT="$CUDA_HOME" -Dnlohmann_json_DIR=/nonexistent >"$BUILD.cmake.log" 2>&1 || {
  cat "$BUILD.cmake.log"; exit 1; }
grep -E "mlperf_runtime:" "$BUILD.cmake.log" || true
grep -q "cuda backend ON" "$BUILD.cmake.log" || { echo "gpu-check: the CUDA toolkit was not found (set CUDA_HOME)"; exit 1; }
timeout 420 cmake --build "$BUILD" --target gpu_check -j "$JOBS"
echo "== built in $(( $(date +%s) - start )) s"

set +e
timeout 300 "$BUILD/bench/gpu_check"
rc=$?
set -e
# The CUDA fixture pairs of `validate` (alloc-in-loop, pageable-async-copy): host programs on
# the CUDA runtime and cuBLAS, built here without the linter; each side run 3 times,
# alternating, with the median of their median step times (validate's report needs LLVM).
CXX=${CXX:-c++}
pairs=(alloc-in-loop pageable-async-copy)
for check in "${pairs[@]}"; do
  for side in bad good; do
    $CXX -O2 -std=c++17 -I"$CUDA_HOME/include" -Ifixtures/common "fixtures/$check/cuda_$side.cc" \
      -o "$BUILD/fx_${check}_$side" -L"$CUDA_HOME/lib64" -Wl,-rpath,"$CUDA_HOME/lib64" -lcublas -lcudart
  done
  set +e
  for run in 1 2 3; do
    for side in bad good; do
      out=$(timeout 120 "$BUILD/fx_${check}_$side")
      status=$?
      if [ $status -ne 0 ]; then echo "$check $side: exit $status"; continue; fi
      echo "$out" | tail -1 | python3 -c "import json,sys,statistics as s; r=json.loads(sys.stdin.read()); \
print('$check', '$side', 'run $run', 'median step %.4f ms' % s.median(r['step_ms']), 'checksum %.9g' % r['checksum'])"
    done
  done
  set -e
done
echo "== gpu-check finished in $(( $(date +%s) - start )) s, exit $rc (77: no GPU, skipped)"
exit $rc
