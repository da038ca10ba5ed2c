#!/usr/bin/env bash
# Sets up a Debian machine (first use), builds everything and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"${JOBS:-2}"
# The package a user installs, built from this build tree: installed with
# apt-get, tried on the examples, and used by the CI recipes of docs/ci/ on a
# small libtorch project (as root only: it changes /usr).
if [ "$(id -u)" = 0 ]; then
  bash scripts/package.sh --install
  bash scripts/check-ci-recipes.sh build/package/mlperf-lint_*_amd64.deb
fi
