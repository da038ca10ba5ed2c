#!/usr/bin/env bash
# pre-commit entry of the `mlperf-lint-build` hook: builds only the linter in
# the hook's clone on first use (build-hook/), then lints the staged files
# given as arguments. Arguments before the files come from the hook's `args`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
lint="$here/build-hook/linter/mlperf-lint"
if [ ! -x "$lint" ]; then
  # pre-commit shows a hook's output only when it ends; the terminal, when
  # there is one, sees the progress while the build runs.
  if { : >/dev/tty; } 2>/dev/null; then exec 3>/dev/tty; else exec 3>&2; fi
  echo "mlperf-lint-build: building mlperf-lint once in $here/build-hook: only the linter target," \
       "82 files of 25-60 s each on one core, so 20-40 minutes on 2 cores (less with more cores or a warm" \
       "ccache). Later commits reuse it; a new rev builds again." >&3
  export CC="${CC:-clang-19}" CXX="${CXX:-clang++-19}"
  cmake -S "$here" -B "$here/build-hook" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMLPERF_BUILD_TESTS=OFF \
        -DMLPERF_BUILD_BENCHMARKS=OFF -DMLPERF_BUILD_FIXTURES=OFF >&3
  ninja -C "$here/build-hook" mlperf-lint >&3
  echo "mlperf-lint-build: built $lint" >&3
fi
[ "$#" -eq 0 ] && exit 0
exec "$lint" --quiet "$@"
