#!/usr/bin/env bash
# Runs the shell steps of the GitHub workflows in docs/ci/ on a small CMake +
# libtorch project, as a runner would (steps of a job in order, in one
# checkout; a matrix job once per shard; artifacts shared through the
# directory), with the package given as the download URL. Then checks that the
# uploaded SARIF has the project's findings and that the sharded workflow's
# merged log has the same results as the unsharded one.
#   scripts/check-ci-recipes.sh <mlperf-lint_*.deb>     (as root: it runs apt-get)
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
deb="$(realpath "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The project: a libtorch trainer that moves the same batch to the device and
# reads the loss back on every step, in two translation units.
project() {
  mkdir -p "$1/src"
  cat >"$1/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.18)
project(tiny_trainer CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(Torch REQUIRED)
add_library(model src/model.cpp)
target_include_directories(model PUBLIC src)
target_link_libraries(model PUBLIC "${TORCH_LIBRARIES}")
add_executable(train src/train.cpp)
target_link_libraries(train PRIVATE model)
CMAKE
  cat >"$1/src/model.h" <<'CPP'
#pragma once
#include <torch/torch.h>
struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Net);
CPP
  cat >"$1/src/model.cpp" <<'CPP'
#include "model.h"
NetImpl::NetImpl() : fc1(register_module("fc1", torch::nn::Linear(32, 64))),
                     fc2(register_module("fc2", torch::nn::Linear(64, 1))) {}
torch::Tensor NetImpl::forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
CPP
  cat >"$1/src/train.cpp" <<'CPP'
#include "model.h"
#include <iostream>
int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), 0.01);
  torch::Tensor x = torch::randn({64, 32}), y = torch::randn({64, 1});
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(net->forward(x.to(device)), y.to(device));
    loss.backward();
    optimizer.step();
    total += loss.item<float>();
  }
  std::cout << total << "\n";
}
CPP
}

# Each `run:` of a workflow as a file <dir>/<job>/<NN>.sh, in order.
extract() {
  awk -v out="$2" '
    /^jobs:/ { injobs = 1; next }
    injobs && /^  [A-Za-z0-9_-]+:$/ { job = substr($1, 1, length($1) - 1); n = 0; block = 0; next }
    block && (match($0, /^ */) && RLENGTH > indent || $0 ~ /^ *$/) {
      print substr($0, indent + 3) >> file; next }
    { block = 0 }
    job != "" && /^ +run: \|$/ { match($0, /^ */); indent = RLENGTH; block = 1
      file = sprintf("%s/%s/%02d.sh", out, job, ++n); system("mkdir -p " out "/" job); next }
    job != "" && /^ +run: / { file = sprintf("%s/%s/%02d.sh", out, job, ++n); system("mkdir -p " out "/" job)
      line = $0; sub(/^ +run: /, "", line); print line > file; close(file) }
  ' "$1"
}

# Runs job $3 of the steps in $1 in the checkout $2, once per shard in $4.
run_job() {
  local steps="$1" dir="$2" job="$3" shards="$4"
  for k in $shards; do
    for step in "$steps/$job"/*.sh; do
      sed -e "s/\${{ matrix.shard }}/$k/g" "$step" >"$step.run"
      (cd "$dir" && MLPERF_LINT_DEB_URL="file://$deb" bash -euo pipefail "$step.run") >>"$dir/step.log" 2>&1 ||
        { cat "$dir/step.log" >&2; echo "ci-recipes: $job step $(basename "$step") failed" >&2; exit 1; }
    done
  done
}

results() { # the results of a SARIF log as sorted "ruleId uri line" lines
  python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    l = r["locations"][0]["physicalLocation"]
    print(r["ruleId"], l["artifactLocation"]["uri"], l["region"]["startLine"])' "$1" | sort
}

one="$work/one" sharded="$work/sharded"
project "$one"
project "$sharded"
extract docs/ci/github-libtorch.yml "$work/steps-one"
extract docs/ci/github-libtorch-sharded.yml "$work/steps-sharded"
[ "$(ls "$work/steps-one/mlperf-lint" | wc -l)" = 3 ] || { echo "ci-recipes: expected 3 steps" >&2; exit 1; }
run_job "$work/steps-one" "$one" mlperf-lint 1
run_job "$work/steps-sharded" "$sharded" lint "$(grep -o 'shard: \[.*\]' docs/ci/github-libtorch-sharded.yml | tr -dc '0-9 ')"
run_job "$work/steps-sharded" "$sharded" report 1

for dir in "$one" "$sharded"; do
  [ -f "$dir/mlperf-lint.sarif" ] || { cat "$dir/step.log" >&2; echo "ci-recipes: $dir: no mlperf-lint.sarif" >&2; exit 1; }
done
results "$one/mlperf-lint.sarif" >"$work/one.txt"
results "$sharded/mlperf-lint.sarif" >"$work/sharded.txt"
cat "$work/one.txt"
grep -q "mlperf-materialize-in-loop src/train.cpp 15" "$work/one.txt" ||
  { echo "ci-recipes: the item() in the training loop was not reported" >&2; exit 1; }
grep -q "mlperf-loop-invariant-transfer src/train.cpp 12" "$work/one.txt" ||
  { echo "ci-recipes: the batch moved on every step was not reported" >&2; exit 1; }
diff "$work/one.txt" "$work/sharded.txt" ||
  { echo "ci-recipes: the merged shards differ from one run" >&2; exit 1; }
echo "ci-recipes: both workflows ran; $(wc -l <"$work/one.txt") findings, the same sharded and merged"
