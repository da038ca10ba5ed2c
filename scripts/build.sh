#!/usr/bin/env bash
# Configures and builds mlperf-lint (clang 19, Ninja, ccache) into build/.
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
export CC="${CC:-clang-19}" CXX="${CXX:-clang++-19}"
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C build -j"${JOBS:-2}" "$@"
