#!/usr/bin/env python3
"""Runs the fixture programs of `mlperf-lint validate` as it would, and records what they print.

For a machine that can run the programs but has no linter (a GPU machine with only CMake and
the CUDA toolkit: scripts/gpu-check.sh builds them there with -DMLPERF_BUILD_LINTER=OFF).
Back on a machine with the linter, `mlperf-lint validate --recorded=FILE` (same --backend,
--repeat, --quick, --checks and --engine) takes each run from the record instead of running
the program, and reports and calibrates them as if they had run there.

  scripts/record-fixture-runs.py --build-dir build-gpu --backend cuda --repeat 3 -o runs.jsonl

Order per pair, as validate's: unless --quick, one warm-up run of each side; then --repeat
times the anti-pattern and the fix, alternating. One JSON line per run.
"""
import argparse
import fnmatch
import json
import os
import platform
import subprocess
import sys
import time


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    text = f"{cpu}, {os.cpu_count()} cpus"
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
        if gpu:
            text += "; GPU " + gpu.splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return text


def program_name(check_dir, source):
    return f"fx_{check_dir}_{os.path.splitext(os.path.basename(source))[0]}"


def run(path, args, backend, timeout):
    env = {k: v for k, v in os.environ.items() if k != "MLPERF_BACKEND"}
    if backend:
        env["MLPERF_BACKEND"] = backend
    start = time.monotonic()
    try:
        p = subprocess.run([path] + args, env=env, capture_output=True, text=True, errors="replace",
                           timeout=timeout, stdin=subprocess.DEVNULL)
        status, out, err = p.returncode, p.stdout, p.stderr
        if status < 0:
            status = 128 - status  # killed by a signal: a failure, as validate sees it
    except subprocess.TimeoutExpired as e:
        status, out, err = -2, e.stdout or "", e.stderr or ""
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        err = err.decode(errors="replace") if isinstance(err, bytes) else err
    # validate reads the last JSON line of stdout and the last line of stderr.
    return status, out[-65536:], err[-4096:], time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, help="build directory holding fixtures/bin")
    ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
    ap.add_argument("--backend", default="", help="MLPERF_BACKEND for every program, as validate's --backend")
    ap.add_argument("--engine", default="", help="only pairs on this engine")
    ap.add_argument("--checks", default="*", help="comma-separated globs of check names (no '-' exclusions)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if a.quick:
        a.repeat = 1
    if a.repeat < 1:
        sys.exit("record-fixture-runs: --repeat needs a positive number")
    globs = [g.strip() for g in a.checks.split(",") if g.strip()]
    bindir = os.path.join(a.build_dir, "fixtures", "bin")
    recorded = 0
    with open(a.output, "w") as out:
        out.write(json.dumps({"machine": machine()}) + "\n")
        for check_dir in sorted(os.listdir(a.fixtures)):
            path = os.path.join(a.fixtures, check_dir, "manifest.json")
            if not os.path.isfile(path):
                continue
            with open(path) as f:
                m = json.load(f)
            if not any(fnmatch.fnmatchcase(m["check"], g) for g in globs):
                continue
            for pair in m["pairs"]:
                if "bad" not in pair or (a.engine and pair["engine"] != a.engine):
                    continue
                sides = [program_name(check_dir, pair[s]) for s in ("bad", "good")]
                if not all(os.access(os.path.join(bindir, s), os.X_OK) for s in sides):
                    print(f"record-fixture-runs: {m['check']} ({pair['engine']}): programs not built, skipped",
                          file=sys.stderr)
                    continue
                args = pair.get("quick_args" if a.quick else "args", [])
                order = ([] if a.quick else sides) + sides * a.repeat
                for name in order:
                    status, so, se, secs = run(os.path.join(bindir, name), args, a.backend, a.timeout)
                    out.write(json.dumps({"program": name, "args": args, "backend": a.backend, "status": status,
                                          "stdout": so, "stderr": se, "seconds": round(secs, 3)}) + "\n")
                    out.flush()
                    recorded += 1
                    print(f"record-fixture-runs: {name} {' '.join(args)}: status {status}, {secs:.1f} s",
                          file=sys.stderr)
    print(f"record-fixture-runs: {recorded} runs in {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
