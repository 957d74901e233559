#!/bin/bash
# Where one evaluation's wall time goes on the GPU machine: stark-eval of a
# problem's first-ranked template candidate (by default the LLaMA block's
# gate projection, inputs/llama-gate-f32.mlir, on gemm_wgmma_3xtf32), with
# glibc's default allocator and with large blocks kept for reuse, each
# with the judge's phases (--json) and the process's times; then under nsys
# (CUDA API and OS runtime) where it is installed.
# Usage: eval_phases.sh <stark bin dir> <out dir> [problem] [family]
B=$1 R=$2
P=${3:-$(dirname "$0")/inputs/llama-gate-f32.mlir}
F=${4:-gemm_wgmma_3xtf32}
mkdir -p "$R"
which nsys perf > "$R/probe-tools.txt" 2>&1
"$B/stark-template" --problem "$P" --family "$F" > /tmp/probe-cand.mlir 2> "$R/probe-template.log"
for V in default keep; do
  E=X=1
  [ $V = keep ] && E=GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967296
  /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" env $E timeout 120 \
    "$B/stark-eval" --target cuda --json --problem "$P" --candidate /tmp/probe-cand.mlir \
    > "$R/probe-$V.json" 2> "$R/probe-$V.time"
done
if which nsys > /dev/null 2>&1; then
  timeout 150 nsys profile -t cuda,osrt --stats=true -o /tmp/probe-nsys --force-overwrite true \
    "$B/stark-eval" --target cuda --json --problem "$P" --candidate /tmp/probe-cand.mlir \
    > "$R/probe-nsys.txt" 2>&1
fi
