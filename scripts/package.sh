#!/usr/bin/env bash
# Builds mlperf-lint_<version>_amd64.deb with CPack from the build tree the
# tests use (build/, or $BUILD_DIR: nothing is built twice), then checks the
# package: extracts it into a fresh directory, checks with ldd that the binary
# resolves every library outside the package, and runs --version and the
# examples from there.
#   scripts/package.sh [output-dir]             (default: <build>/package/)
#   scripts/package.sh --install [output-dir]   also installs it with apt-get
#                                               (as root) and lints a copy of
#                                               examples/ with /usr/bin/mlperf-lint
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
install=0
if [ "${1:-}" = --install ]; then install=1; shift; fi
build="${BUILD_DIR:-$src/build}"
out="${1:-$build/package}"
[ -f "$build/CPackConfig.cmake" ] || { echo "package: $build is not configured (run scripts/build.sh)" >&2; exit 1; }
ninja -C "$build" -j"${JOBS:-2}" mlperf-lint mlperf_tidy_plugin >/dev/null
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
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
(cd "$root" && "$bin" --no-cache examples/) || status=$?
echo "package: mlperf-lint examples/ exited $status"
[ "$status" -le 1 ]

if [ "$install" = 1 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "$deb" >/dev/null
  work="$(mktemp -d)"
  cp -r "$src/examples" "$work/examples"
  status=0
  (cd "$work" && /usr/bin/mlperf-lint --no-cache examples/ >"$work/out.txt" 2>"$work/err.txt") || status=$?
  cat "$work/err.txt" >&2
  grep -c "warning:" "$work/out.txt" | sed 's/^/package: installed mlperf-lint: findings: /'
  # The installed binary uses its own runtime headers, never this checkout's.
  if grep -q "$src" "$work/out.txt" "$work/err.txt"; then
    echo "package: the installed mlperf-lint read files of the checkout $src" >&2
    exit 1
  fi
  vstatus=0
  (cd "$work" && /usr/bin/mlperf-lint validate --fixtures="$work/none" 2>"$work/validate.txt") || vstatus=$?
  echo "package: installed mlperf-lint validate without a checkout: exit $vstatus: $(cat "$work/validate.txt")"
  rm -rf "$work"
  [ "$status" -eq 1 ] && [ "$vstatus" -eq 2 ]
fi
