#!/usr/bin/env bash
# The consistency test of the real-world corpus: each row's files give the
# same findings whether the directories that hold them are linted together
# (one cold run, which stores the project's summaries), each file is linted
# alone, or each directory alone (with the summaries stored, and no result
# replayed).
#
#   bench/realworld/consistency.sh [--linter PATH] [--only N1,N2] [--work DIR] <dir-of-checkouts>
#
# Prints one line per row (files, findings, files that differ) and each
# difference; exit status 0 when every row is consistent, 1 when one is not,
# 2 on a usage error or a missing checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
linter=${MLPERF_LINT:-$root/build/linter/mlperf-lint}
only="" work=""
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --linter) linter=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "consistency.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || usage
checkouts=$(cd "$1" 2>/dev/null && pwd) || { echo "consistency.sh: '$1' is not a directory" >&2; exit 2; }
[ -x "$linter" ] || { echo "consistency.sh: linter '$linter' not found" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d /tmp/mlperf-consistency.XXXXXX)
mkdir -p "$work"

# findings FILE.json -> one line per finding: file, line, column, check, message.
findings() {
  python3 -c 'import json, sys
for d in json.load(open(sys.argv[1])).get("diagnostics", []):
    print("\t".join(str(d.get(k, "")) for k in ("file", "line", "column", "check", "message")))' "$1" | sort
}

status=0
while IFS=$'\t' read -r name repo commit checkout paths args; do
  case $name in '#'*|'') continue ;; esac
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  dir=$checkouts/$checkout
  [ -d "$dir" ] || { echo "consistency.sh: checkout of $repo missing: $dir" >&2; exit 2; }
  cache=$work/$name/cache
  rm -rf "$work/$name"
  mkdir -p "$work/$name"
  lint_args=(--format=json -j 1 --cache-dir="$cache")
  for a in ${args//\{repo\}/$dir}; do lint_args+=("--extra-arg=$a"); done
  targets=()
  for p in $paths; do targets+=("$dir/$p"); done
  run() { # run OUT INPUTS...: no result replayed, the stored summaries kept
    local out=$1
    shift
    rm -rf "$cache/v1"
    "$linter" "${lint_args[@]}" -o "$work/$name/$out.json" "$@" 2>"$work/$name/$out.stderr" || true
    [ -s "$work/$name/$out.json" ] || echo '{"diagnostics": []}' >"$work/$name/$out.json"
    findings "$work/$name/$out.json" >"$work/$name/$out.txt"
  }
  # The row's files, and the directories that hold them: the reference run
  # lints those directories together (the row's part of the tree).
  files=() dirs=()
  for t in "${targets[@]}"; do
    if [ -d "$t" ]; then
      mapfile -t -O "${#files[@]}" files < <(find "$t" -type f \( -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.cu' \) | sort)
    else
      files+=("$t")
    fi
  done
  for f in "${files[@]}"; do dirs+=("$(dirname "$f")"); done
  mapfile -t dirs < <(printf '%s\n' "${dirs[@]}" | sort -u)
  run together "${dirs[@]}"
  differ=0
  compare() { # compare RUN FILE: FILE's findings in RUN and in the reference
    if ! diff <(grep -F "$2"$'\t' "$work/$name/together.txt" || true) <(grep -F "$2"$'\t' "$work/$name/$1.txt" || true) \
         >"$work/$name/$1.diff"; then
      differ=$((differ + 1))
      echo "  $name: ${2#$dir/} ($1) differs from the tree linted together:"
      sed 's/^/    /' "$work/$name/$1.diff"
    fi
  }
  for f in "${files[@]}"; do
    key=alone$(echo "${f#$dir}" | tr '/' '_')
    run "$key" "$f"
    compare "$key" "$f"
  done
  for d in "${dirs[@]}"; do
    key=dir$(echo "${d#$dir}" | tr '/' '_')
    run "$key" "$d"
    for f in $(cut -f1 "$work/$name/together.txt" | sort -u | grep -F "$d/" || true); do
      [ "$(dirname "$f")" = "$d" ] && compare "$key" "$f"
    done
  done
  echo "$name: $(wc -l <"$work/$name/together.txt") finding(s) in ${#dirs[@]} directory(ies), ${#files[@]} file(s) alone, $differ difference(s)"
  [ "$differ" = 0 ] || status=1
done <"$here/repos.tsv"
exit $status
