#!/usr/bin/env bash
# Sets up a Debian machine (first use), builds mlperf-lint and lints examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh mlperf-lint
status=0
build/linter/mlperf-lint examples/ || status=$?
# 1 means findings, which the examples are there to show.
[ "$status" -le 1 ]
