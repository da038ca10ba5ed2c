#!/usr/bin/env bash
# bench/lint_tree.sh -m: a libtorch project whose files call each other,
# linted cold by mlperf-lint and by run-clang-tidy-19 with the plugin; the
# medians of REPS runs, mlperf-lint's parses (--verbose), and its findings
# against the project's hand labels (expected.txt: `file:line check|check`).
# Usage (through lint_tree.sh): lint_project.sh LINT PLUGIN TORCH_INCLUDE PROJECT REPS JOBS
set -euo pipefail
LINT=$1 PLUGIN=$2 TORCH=$3 PROJECT=$4 REPS=$5 JOBS=$6
WORK=$(mktemp -d /tmp/mlperf-lint-project.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
TREE=$WORK/project
cp -r "$PROJECT/." "$TREE"
python3 - "$TREE" "$TORCH" <<'PY'
import json, os, sys
tree, torch = sys.argv[1], sys.argv[2]
src = os.path.join(tree, "src")
cmds = [{"directory": tree, "file": os.path.join(src, f),
         "arguments": ["clang++-19", "-std=c++17", "-isystem", torch, "-I", src, "-c", os.path.join(src, f)]}
        for f in sorted(os.listdir(src)) if f.endswith(".cpp")]
json.dump(cmds, open(os.path.join(tree, "compile_commands.json"), "w"), indent=1)
PY
N=$(ls "$TREE"/src/*.cpp | wc -l)
. "$(dirname "$0")/measure.sh"
m() { median <"$WORK/$1"; }
mlperf=("$LINT" --verbose -p "$TREE" -j "$JOBS" "$TREE/src")
tidy=(run-clang-tidy-19 -load "$PLUGIN" -checks='-*,mlperf-*' -p "$TREE" -j "$JOBS" -quiet)
for r in $(seq "$REPS"); do
  rm -rf "$WORK/cache"
  measure cold "${mlperf[@]}" --cache-dir="$WORK/cache"
  measure plain "${mlperf[@]}" --no-cache --no-preamble
  measure tidy "${tidy[@]}"
  echo "run $r: cold $(tail -1 "$WORK/cold.t") s, no cache or preamble $(tail -1 "$WORK/plain.t") s," \
       "run-clang-tidy $(tail -1 "$WORK/tidy.t") s" >&2
done
parses=$(grep -o '[0-9]* parse(s) for [0-9]* file(s)[^;]*' "$WORK/cold.out" | head -1 || true)
# Findings as `src/file:line check`, and the labels each matches.
grep -E '^[^ ].*:[0-9]+:[0-9]+: warning: .*\[mlperf-[a-z0-9-]+\]$' "$WORK/cold.out" |
  sed -E "s|^$TREE/||; s|^([^:]+):([0-9]+):[0-9]+: .*\\[(mlperf-[a-z0-9-]+)\\]$|\\1:\\2 \\3|" | sort -u >"$WORK/found.txt"
missed=0 found=0 total=0
while read -r where checks; do
  case $where in ''|'#'*) continue ;; esac
  total=$((total + 1))
  if grep -qE "^$where ($checks)\$" "$WORK/found.txt"; then found=$((found + 1)); else missed=$((missed + 1)); echo "missed: $where $checks"; fi
done <"$PROJECT/expected.txt"
extra=$(awk 'NR == FNR { if ($0 !~ /^#/ && NF) want[$1] = 1; next } !($1 in want)' "$PROJECT/expected.txt" "$WORK/found.txt")
C=$(m cold.t) P=$(m plain.t) T=$(m tidy.t)
cat <<TABLE
Project: $(basename "$PROJECT") ($N libtorch files that call each other), -j $JOBS, medians of $REPS runs; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end.
mlperf-lint, cold: $parses. Labels found: $found of $total.$( [ -n "$extra" ] && printf ' Findings without a label:\n%s' "$extra")

| measurement | wall s | CPU s | ratio | goal |
|---|---|---|---|---|
| cold \`mlperf-lint\` (empty cache: shared preamble built) | $C | $(m cold.cpu) | $(ratio "$T" "$C")x faster than run-clang-tidy | >= 1x, aiming at 2.5x |
| \`mlperf-lint --no-cache --no-preamble\` | $P | $(m plain.cpu) | $(ratio "$T" "$P")x faster than run-clang-tidy | |
| cold \`run-clang-tidy-19 -load <plugin>\` (no whole-project analysis) | $T | $(m tidy.cpu) | 1.00x | |

| peak RSS (median) | MB |
|---|---|
| mlperf-lint, cold (whole process) | $(( $(m cold.rss) / 1024 )) |
| mlperf-lint, no cache or preamble (whole process) | $(( $(m plain.rss) / 1024 )) |
| run-clang-tidy-19: its largest clang-tidy-19 worker | $(( $(m tidy.rss) / 1024 )) |
TABLE
[ "$missed" = 0 ]
