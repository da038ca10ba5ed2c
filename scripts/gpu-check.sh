#!/usr/bin/env bash
# Builds the runtime core, the cuda backend and validate's fixture programs on a GPU machine that
# has only CMake, a C++ compiler, the CUDA toolkit and nlohmann/json's headers (no LLVM, no gtest),
# then, each step bounded in time and written as it goes:
#   gpu_check.txt       bench/gpu_check: cuda vs reference on random inputs, the training step's
#                       NVRTC compile (cold and from the persistent cache), a short benchmark table
#   device-cuda.json    bench/device_model cuda: the measured device model of this GPU
#   runs-cuda.jsonl     scripts/record-fixture-runs.py: validate's pairs run as validate runs them
#                       (runtime pairs on the cuda backend, the CUDA pairs, and the libtorch pairs
#                       when a libtorch with CUDA is found), for `mlperf-lint validate --recorded`
#                       on a machine with the linter (docs/cost-model.md, "The CUDA table")
#   scripts/gpu-check.sh [out-dir]   (default: build-gpu/out; the build is in build-gpu)
# NLOHMANN_INCLUDE: a directory holding nlohmann/json.hpp where no package is installed.
# TORCH_ROOT: a libtorch (the libtorch zip, or a pip torch's package directory); by default the
# torch package of python3, if any. REPEAT (3), CHECKS (the calibrated checks): what is recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=build-gpu
OUT_DIR=${1:-$BUILD/out}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=$(nproc 2>/dev/null || echo 4)
start=$(date +%s)
mkdir -p "$OUT_DIR"
elapsed() { echo "$(( $(date +%s) - start )) s"; }

echo "== gpu-check: $(uname -n), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
extra=()
[ -n "${NLOHMANN_INCLUDE:-}" ] && extra+=("-DMLPERF_NLOHMANN_JSON_INCLUDE=$NLOHMANN_INCLUDE")
if [ -z "${TORCH_ROOT:-}" ] && command -v python3 >/dev/null; then
  TORCH_ROOT=$(timeout 60 python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))' 2>/dev/null || true)
fi
if [ -n "${TORCH_ROOT:-}" ] && [ -d "$TORCH_ROOT/include" ]; then
  extra+=("-DFIXTURE_TORCH_ROOT=$TORCH_ROOT")
  # A pip torch built with the old libstdc++ string ABI needs every program to use it too.
  abi=$(timeout 60 python3 -c 'import torch; print(int(torch.compiled_with_cxx11_abi()))' 2>/dev/null || echo 1)
  [ "$abi" = 0 ] && extra+=("-DCMAKE_CXX_FLAGS=-D_GLIBCXX_USE_CXX11_ABI=0")
fi

# OpenBLAS and the cpu backend (it needs LLVM) are off, so the build needs nothing else.
timeout 420 cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DMLPERF_BUILD_LINTER=OFF -DMLPERF_BUILD_TESTS=OFF -DMLPERF_BUILD_BENCHMARKS=ON -DMLPERF_BUILD_FIXTURES=ON \
  -DMLPERF_RT_CPU_BACKEND=OFF -DMLPERF_RT_CUDA_BACKEND=ON -DMLPERF_RT_USE_BLAS=OFF \
  -DCUDAToolkit_ROOT="$CUDA_HOME" -Dnlohmann_json_DIR=/nonexistent "${extra[@]}" >"$OUT_DIR/cmake.log" 2>&1 || {
  cat "$OUT_DIR/cmake.log"; exit 1; }
grep -E "mlperf_runtime:|libtorch|CUDA toolkit" "$OUT_DIR/cmake.log" || true
grep -q "cuda backend ON" "$OUT_DIR/cmake.log" || { echo "gpu-check: the CUDA toolkit was not found (set CUDA_HOME)"; exit 1; }
timeout 300 cmake --build "$BUILD" --target gpu_check device_model -j "$JOBS"
# A fixture program that does not build (a libtorch of another version) costs its pair only.
set +e
timeout 300 cmake --build "$BUILD" --target mlperf_fixtures -j "$JOBS" -- -k 0 >"$OUT_DIR/fixtures-build.log" 2>&1 \
  || { echo "gpu-check: some fixture programs did not build:"; grep -E "FAILED|error" "$OUT_DIR/fixtures-build.log" | head -20; }
echo "== built in $(elapsed); fixture programs: $(ls "$BUILD/fixtures/bin" | grep -c '^fx_')"

timeout 300 "$BUILD/bench/gpu_check" 2>&1 | tee "$OUT_DIR/gpu_check.txt"
rc=${PIPESTATUS[0]}
echo "== gpu_check exit $rc (77: no GPU, skipped) at $(elapsed)"
timeout 120 "$BUILD/bench/device_model" cuda measured-cuda "$OUT_DIR/device-cuda.json" && cat "$OUT_DIR/device-cuda.json"
echo "== device model at $(elapsed)"
# The runtime's and the CUDA pairs first; libtorch's (each run starts CUDA in libtorch) last.
checks=${CHECKS:-mlperf-sync-in-loop,mlperf-materialize-in-loop,mlperf-loop-invariant-transfer,mlperf-compile-in-loop,mlperf-alloc-in-loop,mlperf-pageable-async-copy,mlperf-create-on-device,mlperf-per-element-read}
for spec in ${RECORD_BUDGETS:-runtime:150 cuda:60 libtorch:120}; do
  engine=${spec%:*}
  timeout "${spec#*:}" python3 scripts/record-fixture-runs.py --build-dir "$BUILD" --backend cuda --engine "$engine" \
    --checks "$checks" --repeat "${REPEAT:-3}" --timeout 60 -o "$OUT_DIR/runs-$engine.jsonl"
done
cat "$OUT_DIR"/runs-runtime.jsonl "$OUT_DIR"/runs-cuda.jsonl "$OUT_DIR"/runs-libtorch.jsonl >"$OUT_DIR/all-runs.jsonl" 2>/dev/null
rm -f "$OUT_DIR"/runs-runtime.jsonl "$OUT_DIR"/runs-libtorch.jsonl
mv "$OUT_DIR/all-runs.jsonl" "$OUT_DIR/runs-cuda.jsonl"
echo "== recorded runs at $(elapsed): $OUT_DIR/runs-cuda.jsonl"
python3 - "$OUT_DIR/runs-cuda.jsonl" <<'EOF'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "program" not in r:
        continue
    key = (r["program"], " ".join(r["args"]))
    try:
        rep = json.loads([l for l in r["stdout"].splitlines() if l.strip().startswith("{")][-1])
        # A pipelined program reports the loop's wall time, not single steps.
        step = statistics.median(rep["step_ms"]) if rep["step_ms"] else rep["total_ms"] / rep["steps"]
        rows.setdefault(key, []).append((step, rep.get("backend", "")))
    except (IndexError, KeyError, ValueError, statistics.StatisticsError):
        rows.setdefault(key, []).append((None, "status %d" % r["status"]))
for (prog, args), v in rows.items():
    ms = [x for x, _ in v if x is not None]
    print("%-48s %-28s %s median step %s ms over %d runs" % (prog, args, v[-1][1],
          "%.4f" % statistics.median(ms) if ms else "-", len(v)))
EOF
set -e
echo "== gpu-check finished in $(elapsed), exit $rc"
exit "$rc"
