#!/usr/bin/env bash
# pre-commit entry: lints the staged C++ files given as arguments.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if command -v mlperf-lint >/dev/null 2>&1; then
  lint=mlperf-lint
else
  lint="$here/build/linter/mlperf-lint"
  [ -x "$lint" ] || (cd "$here" && bash scripts/build.sh mlperf-lint >&2)
fi
[ "$#" -eq 0 ] && exit 0
exec "$lint" --quiet "$@"
