#!/usr/bin/env bash
# Sets up a Debian machine (first use), builds everything and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"${JOBS:-2}"
