#!/usr/bin/env bash
# A tree of N small translation units (one finding each, in 100 directories),
# linted cold (empty cache: every file parsed, entries and summaries written)
# and then fully from the cache (nothing changed), REPS times each, in turn so
# that both see the same load. Prints the medians, their ratio and the
# findings of both (which must be identical; a difference fails the script).
# Usage: bench/cache_replay.sh [-n FILES] [-r REPS] [-j JOBS] [-b BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=10000 REPS=3 JOBS=$(nproc) BUILD=build
while getopts "n:r:j:b:" opt; do
  case $opt in
    n) FILES=$OPTARG ;; r) REPS=$OPTARG ;; j) JOBS=$OPTARG ;; b) BUILD=$OPTARG ;;
    *) echo "usage: $0 [-n FILES] [-r REPS] [-j JOBS] [-b BUILD_DIR]" >&2; exit 2 ;;
  esac
done
LINT=$PWD/$BUILD/linter/mlperf-lint
case $BUILD in /*) LINT=$BUILD/linter/mlperf-lint ;; esac
[ -x "$LINT" ] || { echo "cache_replay.sh: missing $LINT (build mlperf-lint)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/mlperf-lint-replay.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK/tree" "$FILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%02d" % (i % 100))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d.cc" % i), "w") as f:
        f.write('extern "C" int cudaDeviceSynchronize();\n'
                'extern "C" int cuLaunchKernel(void *f);\n'
                'void train%d(void *k) {\n'
                '  for (int i = 0; i < 10; ++i) {\n'
                '    cuLaunchKernel(k);\n'
                '    cudaDeviceSynchronize();\n'
                '  }\n'
                '}\n' % i)
PY
run() { # NAME: one timed run into NAME.t (seconds) and NAME.out
  local name=$1 start end
  start=$(date +%s.%N)
  "$LINT" --cache-dir="$WORK/cache" -j "$JOBS" "$WORK/tree" -- -std=c++17 >"$WORK/$name.out" 2>"$WORK/$name.err" || true
  end=$(date +%s.%N)
  printf "%.2f\n" "$(echo "$end - $start" | bc)" >>"$WORK/$name.t"
}
for r in $(seq "$REPS"); do
  rm -rf "$WORK/cache"
  run cold
  run cached
  grep -q "$FILES of $FILES file(s) from the result cache" "$WORK/cached.err" ||
    { echo "cache_replay.sh: the second run was not served from the cache:" >&2; tail -3 "$WORK/cached.err" >&2; exit 1; }
  echo "run $r: cold $(tail -1 "$WORK/cold.t") s, cached $(tail -1 "$WORK/cached.t") s" >&2
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
C=$(median <"$WORK/cold.t") W=$(median <"$WORK/cached.t")
same=yes
cmp -s "$WORK/cold.out" "$WORK/cached.out" || same=no
cat <<MD
Tree: $FILES files, -j $JOBS, medians of $REPS runs; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end.
Findings: $(grep -c ': warning:' "$WORK/cold.out") cold, $(grep -c ': warning:' "$WORK/cached.out") cached; identical reports: $same.

| run | seconds (runs) | ratio |
|---|---|---|
| cold (every file parsed, entries and summaries written) | $C ($(paste -sd/ "$WORK/cold.t")) | 1.00x |
| fully cached (nothing changed) | $W ($(paste -sd/ "$WORK/cached.t")) | $(echo "scale=1; $C / $W" | bc)x faster |
MD
[ "$same" = yes ] || { echo "reports differ"; exit 1; }
