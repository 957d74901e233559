#!/bin/bash
# Device call 1 (2026-12-06, second session): the three gemm_tc template
# tests that failed before GemmWmma.cuh's NVRTC fix; then where one
# evaluation of LLaMA's 512x2048 by 5632x2048^T projection spends its time
# (stark-eval phases, and a CPU profile of the judge and its runner), and
# every gemm_3xtf32 parameter set of that problem timed by stark-eval.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; nproc >> $R/gpu.txt; which perf nsys >> $R/gpu.txt 2>&1
timeout 120 /tmp/stark/run-tests.sh -v test/Integration/CUDA/templates/gemm-tc.mlir test/Integration/CUDA/templates/gemm-init-fill.mlir test/Integration/CUDA/templates/gemm-epilogue.mlir > $R/cuda-lit-gemm-tc.log 2>&1; echo "rc=$?" >> $R/cuda-lit-gemm-tc.log
B=/tmp/stark/bin
$B/stark-opt examples/models/llama_block_b1.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/outlined > /dev/null 2>&1
q=$(grep -l 'shapes = "5632x2048xf32,512x2048xf32->512x5632xf32"' /tmp/outlined/*.mlir | head -1)
echo "problem: $q" > $R/eval-profile.log
$B/stark-template --problem $q > /tmp/cand.mlir 2>> $R/eval-profile.log
{ time $B/stark-eval --target cuda --problem $q --candidate /tmp/cand.mlir ; } >> $R/eval-profile.log 2>&1
if which perf > /dev/null 2>&1; then
  perf record -g -F 999 -o /tmp/perf.data -- $B/stark-eval --target cuda --problem $q --candidate /tmp/cand.mlir > $R/eval-perf-run.log 2>&1
  perf report -i /tmp/perf.data --no-children --sort comm,dso,sym 2>/dev/null | grep -v '^#' | grep '%' | head -80 > $R/eval-perf.txt
  perf report -i /tmp/perf.data --children --sort sym 2>/dev/null | grep -v '^#' | grep '%' | head -80 > $R/eval-perf-children.txt
fi
$B/stark-template --problem $q --list 2>&1 | tail -n +2 | while read P; do
  $B/stark-template --problem $q --params "$P" > /tmp/c.mlir 2>/dev/null || continue
  echo "== $P" >> $R/params.log
  { time $B/stark-eval --target cuda --problem $q --candidate /tmp/c.mlir ; } >> $R/params.log 2>&1
done
tar -czf $OUT/results.tgz -C $R .
