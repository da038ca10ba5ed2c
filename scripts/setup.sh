#!/usr/bin/env bash
# Installs what mlperf-lint needs on a Debian 12 machine (as root). Idempotent.
set -euo pipefail
PKGS=(cmake ninja-build ccache g++ pkg-config
      llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 clang-tidy-19 libclang-rt-19-dev
      nlohmann-json3-dev googletest libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev
      libtorch-dev pre-commit git vim vim-ale libxml2-dev clang-format-19)
# Headless Chromium renders the HTML pages in the tests (they skip without
# it). It is ~80 MB to download and ~350 MB installed, so only on request:
# MLPERF_SETUP_CHROMIUM=1 bash scripts/setup.sh
if [ "${MLPERF_SETUP_CHROMIUM:-0}" = 1 ]; then PKGS+=(chromium); fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
