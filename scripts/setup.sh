#!/usr/bin/env bash
# Installs what mlperf-lint needs on a Debian 12 machine (as root). Idempotent.
set -euo pipefail
PKGS=(cmake ninja-build ccache g++ pkg-config
      llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 clang-tidy-19 libclang-rt-19-dev
      nlohmann-json3-dev googletest libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev
      libtorch-dev pre-commit git vim vim-ale libxml2-dev clang-format-19
      chromium emacs-nox elpa-eglot)
# chromium renders the HTML pages and Emacs with eglot drives the language
# server in the tests, which skip without them.
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
