#!/usr/bin/env bash
# Lints a tree of libtorch translation units (the bundled examples and the
# libtorch fixtures) and reports, side by side in one run, medians of REPS:
#   cold mlperf-lint (empty cache)  vs  run-clang-tidy-19 with the plugin
#   warm re-lint of the unchanged tree, re-lint after touching one .cpp,
#   lint / clang++ -fsyntax-only for one libtorch file, a changed file linted
#   alone against the stored preamble (pre-commit, an editor), peak RSS.
# Usage: bench/lint_tree.sh [-n FILES] [-r REPS] [-j JOBS] [-b BUILD_DIR] [-1 | -m]
# Prints a Markdown table; the findings of both tools are compared and a
# difference fails the script (exit 1). -1: only the one-file rows (the tree is
# linted once, untimed, to store its preamble), minutes instead of an hour.
# -m: instead of independent files, a project whose files call each other
# (bench/trees/trainer: the loop, the loss, the metrics, the data in separate
# files): cold mlperf-lint (its parses, from --verbose) against run-clang-tidy,
# and its findings against the tree's hand labels (expected.txt); a label not
# found fails the script (exit 1).
# Seconds are wall time; the one-file rows also give CPU time (user + system),
# which a machine shared with other work distorts less.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
FILES=20 REPS=3 JOBS=$(nproc) BUILD=build ONLY_ONE=0 MULTI=0
while getopts "n:r:j:b:1m" opt; do
  case $opt in
    n) FILES=$OPTARG ;; r) REPS=$OPTARG ;; j) JOBS=$OPTARG ;; b) BUILD=$OPTARG ;; 1) ONLY_ONE=1 ;; m) MULTI=1 ;;
    *) echo "usage: $0 [-n FILES] [-r REPS] [-j JOBS] [-b BUILD_DIR] [-1 | -m]" >&2; exit 2 ;;
  esac
done
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
LINT=$BUILD/linter/mlperf-lint
PLUGIN=$(find "$BUILD" -name "mlperf-lint-plugin.so" 2>/dev/null | head -1)
TORCH=""
for d in /usr/include/torch/csrc/api/include /usr/local/include/torch/csrc/api/include; do
  [ -d "$d" ] && TORCH=$d && break
done
for need in "$LINT" "$PLUGIN" "$TORCH"; do
  [ -e "$need" ] || { echo "lint_tree.sh: missing $need (build mlperf-lint and mlperf_tidy_plugin; libtorch)" >&2; exit 2; }
done
command -v run-clang-tidy-19 >/dev/null || { echo "lint_tree.sh: run-clang-tidy-19 not found" >&2; exit 2; }

WORK=$(mktemp -d /tmp/mlperf-lint-tree.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$MULTI" = 1 ]; then
  exec "$SRC/bench/lint_project.sh" "$LINT" "$PLUGIN" "$TORCH" "$SRC/bench/trees/trainer" "$REPS" "$JOBS"
fi
TREE=$WORK/tree
mkdir -p "$TREE"
i=0
for f in $(ls fixtures/*/{train,serve,score,libtorch}_*.cc 2>/dev/null | sort) examples/*.cc; do
  [ "$i" -ge "$FILES" ] && break
  grep -q '#include <torch/torch.h>' "$f" || continue
  cp "$f" "$TREE/$(printf '%02d' $i)_$(basename "$(dirname "$f")")_$(basename "$f" .cc).cpp"
  i=$((i + 1))
done
[ "$i" -ge "$FILES" ] || echo "lint_tree.sh: only $i libtorch files available" >&2
FLAGS=(-std=c++17 -isystem "$TORCH" -I "$SRC/fixtures/common" -I "$SRC/profiles/include")
python3 - "$TREE" "${FLAGS[@]}" <<'EOF'
import json, os, sys
tree, flags = sys.argv[1], sys.argv[2:]
cmds = [{"directory": tree, "file": os.path.join(tree, f),
         "arguments": ["clang++-19", *flags, "-c", os.path.join(tree, f)]}
        for f in sorted(os.listdir(tree)) if f.endswith(".cpp")]
json.dump(cmds, open(os.path.join(tree, "compile_commands.json"), "w"), indent=1)
EOF
ONE=$(ls "$TREE"/*.cpp | head -1)

. "$SRC/bench/measure.sh"
findings() { grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error): ' | sed 's/,-warnings-as-errors//' | sort -u; }

mlperf=("$LINT" --checks='-*,mlperf-*' -p "$TREE" -j "$JOBS" "$TREE")
tidy=(run-clang-tidy-19 -load "$PLUGIN" -checks='-*,mlperf-*' -p "$TREE" -j "$JOBS" -quiet)

if [ "$ONLY_ONE" = 1 ]; then
  "${mlperf[@]}" --cache-dir="$WORK/cache" >/dev/null 2>&1 || true
  for r in $(seq "$REPS"); do
    measure lint1 "$LINT" --no-cache -p "$TREE" -j 1 "$ONE"
    echo "// changed again $r" >>"$ONE"
    measure alone "$LINT" -p "$TREE" -j 1 --cache-dir="$WORK/cache" "$ONE"
    measure syntax1 clang++-19 "${FLAGS[@]}" -fsyntax-only "$ONE"
    echo "run $r: one-file lint $(tail -1 "$WORK/lint1.t") s ($(tail -1 "$WORK/lint1.cpu") s CPU)" \
         "alone $(tail -1 "$WORK/alone.t") s ($(tail -1 "$WORK/alone.cpu") s CPU)" \
         "syntax $(tail -1 "$WORK/syntax1.t") s ($(tail -1 "$WORK/syntax1.cpu") s CPU)" >&2
  done
  m() { median <"$WORK/$1"; }
  cat <<EOF
One file of a tree of $i libtorch translation units, medians of $REPS runs; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end.

| measurement | wall s | CPU s | CPU ratio | goal |
|---|---|---|---|---|
| one file: \`mlperf-lint --no-cache\` | $(m lint1.t) | $(m lint1.cpu) | $(ratio "$(m lint1.cpu)" "$(m syntax1.cpu)")x \`clang++ -fsyntax-only\` | <= 1.10x |
| one changed file alone, with the stored preamble (pre-commit, editor) | $(m alone.t) | $(m alone.cpu) | $(ratio "$(m alone.cpu)" "$(m syntax1.cpu)")x \`clang++ -fsyntax-only\` | <= 0.4x |
| one file: \`clang++-19 -fsyntax-only\` | $(m syntax1.t) | $(m syntax1.cpu) | 1.00x | |
EOF
  exit 0
fi

for r in $(seq "$REPS"); do
  rm -rf "$WORK/cache"
  measure cold "${mlperf[@]}" --cache-dir="$WORK/cache"
  measure plain "${mlperf[@]}" --no-cache
  measure tidy "${tidy[@]}"
  measure warm "${mlperf[@]}" --cache-dir="$WORK/cache"
  echo "// touched $r" >>"$ONE"
  measure touched "${mlperf[@]}" --cache-dir="$WORK/cache"
  measure lint1 "$LINT" --no-cache -p "$TREE" -j 1 "$ONE"
  echo "// changed again $r" >>"$ONE"
  measure alone "$LINT" -p "$TREE" -j 1 --cache-dir="$WORK/cache" "$ONE"
  measure syntax1 clang++-19 "${FLAGS[@]}" -fsyntax-only "$ONE"
  echo "run $r: cold $(tail -1 "$WORK/cold.t") no-cache $(tail -1 "$WORK/plain.t") run-clang-tidy $(tail -1 "$WORK/tidy.t")" \
       "warm $(tail -1 "$WORK/warm.t") touched $(tail -1 "$WORK/touched.t") one-file lint $(tail -1 "$WORK/lint1.t")" \
       "syntax $(tail -1 "$WORK/syntax1.t")" >&2
done
findings <"$WORK/cold.out" >"$WORK/mlperf.txt" || true
findings <"$WORK/plain.out" >"$WORK/plain.txt" || true
findings <"$WORK/tidy.out" >"$WORK/tidy.txt" || true
same=yes
cmp -s "$WORK/mlperf.txt" "$WORK/tidy.txt" && cmp -s "$WORK/plain.txt" "$WORK/tidy.txt" || same=no

m() { median <"$WORK/$1.t"; }
C=$(m cold) P=$(m plain) T=$(m tidy) W=$(m warm) U=$(m touched) L=$(m lint1) S=$(m syntax1) A=$(m alone)
rss() { echo $(( $(median <"$WORK/$1.rss") / 1024 )); }
cat <<EOF
Tree: $i libtorch translation units, -j $JOBS, medians of $REPS runs; $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end.
Findings: $(wc -l <"$WORK/mlperf.txt") from mlperf-lint (with the preamble), $(wc -l <"$WORK/plain.txt") without cache or preamble, $(wc -l <"$WORK/tidy.txt") from run-clang-tidy-19; identical: $same.

| measurement | seconds | ratio | goal |
|---|---|---|---|
| cold \`mlperf-lint\` (empty cache: shared preamble built, entries written) | $C | $(ratio "$T" "$C")x faster than run-clang-tidy | >= 2.5x |
| \`mlperf-lint --no-cache\` (no preamble) | $P | $(ratio "$T" "$P")x faster than run-clang-tidy | |
| cold \`run-clang-tidy-19 -load <plugin>\` | $T | 1.00x | |
| warm re-lint, unchanged tree | $W | $(ratio "$C" "$W")x faster than cold | >= 50x |
| re-lint after touching one .cpp | $U | $(ratio "$U" "$L")x the cost of linting that file alone | ~1x |
| one file: \`mlperf-lint\` | $L | $(ratio "$L" "$S")x \`clang++ -fsyntax-only\` | <= 1.10x |
| one file: \`clang++-19 -fsyntax-only\` | $S | 1.00x | |
| one changed file alone, with the stored preamble (pre-commit, editor) | $A | $(ratio "$A" "$S")x \`clang++ -fsyntax-only\` | <= 0.4x |

| peak RSS (median) | MB |
|---|---|
| mlperf-lint, one file, -j 1 (one worker) | $(rss lint1) |
| mlperf-lint, the tree, -j $JOBS, no cache (whole process) | $(rss plain) |
| run-clang-tidy-19: its largest clang-tidy-19 worker | $(rss tidy) |
| clang++-19 -fsyntax-only, one file | $(rss syntax1) |
EOF
if [ "$same" != yes ]; then
  echo; echo "Findings differ:"; diff "$WORK/mlperf.txt" "$WORK/tidy.txt" || true; diff "$WORK/plain.txt" "$WORK/tidy.txt" || true
  exit 1
fi
