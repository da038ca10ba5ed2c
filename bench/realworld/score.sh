#!/usr/bin/env bash
# Lints the checkouts of the real-world corpus the way a user would and scores
# the findings against the hand labels in corpus.tsv.
#
#   bench/realworld/score.sh [options] <dir-of-checkouts>
#     --linter PATH     mlperf-lint binary (default: $MLPERF_LINT, else build/linter/mlperf-lint)
#     --results DIR     where each repository's JSON findings go (default: build/realworld)
#     --reuse           score the JSON already in --results; lint only what is missing
#     --only N1,N2      lint and score only these rows of repos.tsv (by name)
#     --jobs N          passed to mlperf-lint -j (default 1)
#     --extra-arg ARG   one more compiler argument for every repository (repeatable),
#                       e.g. -isystem<dir> with empty stand-ins for missing headers
#     -v                list every false negative, not only their count
#
# <dir-of-checkouts>/<checkout> must hold each repository of repos.tsv at its
# commit. Exit status: 0 scored, 2 usage error or a missing checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
linter=${MLPERF_LINT:-$root/build/linter/mlperf-lint}
results=$root/build/realworld
reuse=0 only="" jobs=1 verbose="" common=()
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --linter) linter=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --only) only=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --extra-arg) common+=("--extra-arg=$2"); shift 2 ;;
    -v) verbose=-v; shift ;;
    -h|--help) usage ;;
    -*) echo "score.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || usage
checkouts=$(cd "$1" 2>/dev/null && pwd) || { echo "score.sh: '$1' is not a directory" >&2; exit 2; }
[ -x "$linter" ] || { echo "score.sh: linter '$linter' not found or not executable (--linter or MLPERF_LINT)" >&2; exit 2; }
mkdir -p "$results"

while IFS=$'\t' read -r name repo commit checkout paths args; do
  case $name in '#'*|'') continue ;; esac
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  dir=$checkouts/$checkout
  [ -d "$dir" ] || { echo "score.sh: checkout of $repo missing: $dir" >&2; exit 2; }
  if [ -d "$dir/.git" ]; then
    have=$(git -C "$dir" rev-parse HEAD)
    [ "$have" = "$commit" ] || echo "score.sh: warning: $dir is at $have, the labels are for $commit" >&2
  fi
  out=$results/$name.json
  [ "$reuse" = 1 ] && [ -s "$out" ] && continue
  lint_args=(--format=json -j "$jobs" -o "$out" "${common[@]}")
  for a in ${args//\{repo\}/$dir}; do lint_args+=("--extra-arg=$a"); done
  targets=()
  for p in $paths; do targets+=("$dir/$p"); done
  echo "== $name: mlperf-lint ${lint_args[*]} ${paths}" >&2
  start=$(date +%s)
  # Exit status 1 (findings) and 2 (files that do not compile) are both results here.
  "$linter" "${lint_args[@]}" "${targets[@]}" 2>"$results/$name.stderr" || true
  [ -s "$out" ] || echo '{"diagnostics": []}' >"$out"
  echo "   $(( $(date +%s) - start )) s" >&2
done <"$here/repos.tsv"

exec python3 "$here/score.py" $verbose --only "$only" "$here/repos.tsv" "$here/corpus.tsv" "$results" "$checkouts"
