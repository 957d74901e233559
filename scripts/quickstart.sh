#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: install what is missing,
# build, then run the bundled example (`demo`) or every test (`test`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${STARK_BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22
JOBS="${STARK_JOBS:-$(nproc)}"

PACKAGES=(
  cmake ninja-build g++ ccache python3 git clang-format
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libgtest-dev nlohmann-json3-dev libcurl4-openssl-dev zlib1g-dev libzstd-dev
  openmpi-bin libopenmpi-dev
)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return
  fi
  log "installing: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ ! -f /usr/local/cuda/include/cuda.h ]; then
    log "no CUDA toolkit in /usr/local/cuda: building without the cuda target"
  fi
}

configure() {
  if [ ! -f "$BUILD/build.ninja" ]; then
    log "configuring $BUILD"
    cmake -G Ninja -S "$ROOT" -B "$BUILD" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" >/dev/null
  fi
}

build() {
  configure
  log "building ($*)"
  ninja -C "$BUILD" -j "$JOBS" "$@"
}

run_demo() {
  local example="$ROOT/examples/mlp.mlir"
  local report="$BUILD/mlp.report.json"
  build stark-opt stark-eval
  log "optimising the hot ops of examples/mlp.mlir (target ${STARK_TARGET:-cpu}, offline expert agents)"
  "$BUILD/bin/stark-opt" "$example" \
    --stark-pipeline="target=${STARK_TARGET:-cpu} top-k=3 budget=${STARK_BUDGET:-4} seed=0 report=$report" \
    -o "$BUILD/mlp.optimized.mlir" --mlir-print-op-on-diagnostic=false
  PYTHONPATH="$ROOT/python" python3 -m stark.report "$report"
  log "optimised IR: $BUILD/mlp.optimized.mlir; every candidate: $report"
}

run_tests() {
  build stark-test-depends
  local json="$BUILD/test-results.json"
  rm -f "$json"
  log "running lit and unit tests"
  set +e
  "$LLVM_PREFIX/bin/lit" -sv --output "$json" "$BUILD/test" "$BUILD/test/Unit"
  local rc=$?
  set -e
  python3 "$ROOT/scripts/summarize-lit.py" "$json" || rc=1
  return $rc
}

case "${1:-}" in
  deps) install_deps ;;
  build) install_deps; build ;;
  demo) install_deps; run_demo ;;
  test) install_deps; run_tests ;;
  *)
    echo "usage: $0 demo|test|build|deps" >&2
    exit 2
    ;;
esac
