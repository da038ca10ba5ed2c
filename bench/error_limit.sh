#!/usr/bin/env bash
# Broken and pathological files against clang-tidy-19: 20,000 `int xN = ;` on
# one line, 40,000 declarations missing their `;` on one line (each error
# carries a fix-it), and a 70,000-term expression. Each is linted REPS times
# by mlperf-lint (and, with -B, by another mlperf-lint binary, e.g. an
# earlier build) and by clang-tidy-19 with its default checks, in turn so that
# all see the same load; prints the median wall seconds and the ratios.
# Usage: bench/error_limit.sh [-r REPS] [-b BUILD_DIR] [-B OTHER_MLPERF_LINT]
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=3 BUILD=build BEFORE=""
while getopts "r:b:B:" opt; do
  case $opt in
    r) REPS=$OPTARG ;; b) BUILD=$OPTARG ;; B) BEFORE=$OPTARG ;;
    *) echo "usage: $0 [-r REPS] [-b BUILD_DIR] [-B OTHER_MLPERF_LINT]" >&2; exit 2 ;;
  esac
done
LINT=$PWD/$BUILD/linter/mlperf-lint
case $BUILD in /*) LINT=$BUILD/linter/mlperf-lint ;; esac
[ -x "$LINT" ] || { echo "error_limit.sh: missing $LINT (build mlperf-lint)" >&2; exit 2; }
command -v clang-tidy-19 >/dev/null || { echo "error_limit.sh: clang-tidy-19 not found" >&2; exit 2; }

WORK=$(mktemp -d /tmp/mlperf-lint-errors.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK" <<'PY'
import sys
w = sys.argv[1]
open(w + "/errors.cc", "w").write("void f() { " + " ".join("int x%d = ;" % i for i in range(20000)) + " }\n")
open(w + "/fixits.cc", "w").write("void f() { " + " ".join("int x%d = 1" % i for i in range(40000)) + " }\n")
open(w + "/expression.cc", "w").write("int g(int a) { return " + " + ".join("a" for _ in range(70000)) + "; }\n")
PY
time_of() { # NAME FILE command...: appends wall seconds to NAME-FILE.t
  local name=$1 file=$2
  shift 2
  /usr/bin/time -f "%e" -o "$WORK/t" timeout 600 "$@" "$WORK/$file.cc" -- -std=c++17 >/dev/null 2>&1 || true
  tail -1 "$WORK/t" >>"$WORK/$name-$file.t"
}
for r in $(seq "$REPS"); do
  for f in errors fixits expression; do
    time_of lint "$f" "$LINT" --no-cache
    [ -z "$BEFORE" ] || time_of before "$f" "$BEFORE" --no-cache
    time_of tidy "$f" clang-tidy-19
  done
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
m() { median <"$WORK/$1.t"; }
echo "Medians of $REPS runs (wall seconds), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo
echo "| input | mlperf-lint | ${BEFORE:+other build | }clang-tidy-19 | mlperf-lint / clang-tidy |"
echo "|---|---|${BEFORE:+---|}---|---|"
for f in errors fixits expression; do
  echo "| $f.cc | $(m lint-$f) ($(paste -sd/ "$WORK/lint-$f.t")) | ${BEFORE:+$(m before-$f) ($(paste -sd/ "$WORK/before-$f.t")) | }$(m tidy-$f) ($(paste -sd/ "$WORK/tidy-$f.t")) | $(echo "scale=2; $(m lint-$f) / $(m tidy-$f)" | bc)x |"
done
