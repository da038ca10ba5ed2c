#!/usr/bin/env bash
# Builds mlperf-lint_<version>_amd64.deb (CPack) from a linter-only build in
# build-package/: no GoogleTest, Google Benchmark or libtorch (CMake is told
# they do not exist), then checks the package: installs it into a fresh
# DESTDIR with dpkg-deb, checks with ldd that the binary resolves every
# library outside the package, and runs --version and the examples.
# Usage: scripts/package.sh [output-dir]   (default: build-package/)
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
out="${1:-$src/build-package}"
export CC="${CC:-clang-19}" CXX="${CXX:-clang++-19}"
cmake -S . -B build-package -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
      -DMLPERF_BUILD_TESTS=OFF -DMLPERF_BUILD_BENCHMARKS=OFF -DMLPERF_BUILD_FIXTURES=OFF \
      -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON --no-warn-unused-cli >/dev/null
ninja -C build-package -j"${JOBS:-2}" mlperf-lint mlperf_tidy_plugin
(cd build-package && cpack -G DEB -B "$out" >/dev/null)
deb="$(ls -t "$out"/mlperf-lint_*_amd64.deb | head -1)"
echo "package: $deb"
dpkg-deb --field "$deb" Package Version Architecture Depends

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/mlperf-lint"
if ldd "$bin" | grep -q "not found"; then
  ldd "$bin" >&2
  echo "package: $bin has unresolved libraries" >&2
  exit 1
fi
ldd "$bin" | grep -E "libLLVM|libclang-cpp"
ldd "$root/usr/lib/mlperf-lint/mlperf-lint-plugin.so" | grep -q "not found" && { echo "plugin: unresolved" >&2; exit 1; }
"$bin" --version
ls "$root/usr/share/mlperf-lint/profiles" "$root/usr/share/doc/mlperf-lint/checks" | head -3
# Run away from the source tree, so nothing of it (runtime headers, build
# directories) helps; 1 means findings, which the examples are there to show.
cp -r "$src/examples" "$root/examples"
status=0
(cd "$root" && "$bin" examples/) || status=$?
echo "package: mlperf-lint examples/ exited $status"
[ "$status" -le 1 ]
