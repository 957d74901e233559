#!/bin/bash
# Device call 3 of 2026-12-07i (the two calls before did not get a machine;
# device time left for one call): the CUDA-target unit tests, the
# evaluation-cost probe once per variant (as call 1), the GPU tests nearest
# the evaluator within GPUT (180) s, then the LLaMA block searched for
# SEARCH (120) s when at least 230 s of TOTAL (540) are left. Carry the
# bundle (BUNDLE, default .bundle/b4: main at 44933ec) and .devinput/.
T0=$(date +%s)
BUNDLE=${BUNDLE:-.bundle/b4/stark-bundle.tar.xz}
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results; rm -rf $R /tmp/models; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
KIND=h200; grep -q H100 $R/gpu.txt && KIND=h100
for t in $B/unittests/Target/*CudaTarget*; do timeout 60 $t > $R/$(basename $t).log 2>&1; echo "rc=$?" >> $R/$(basename $t).log; done
P=bench/kernels/inputs/llama-gate-f32.mlir
$B/bin/stark-template --problem $P --family gemm_wgmma_3xtf32 > /tmp/cand.mlir 2> $R/template.log
run() { # name, stark-eval options
  N=$1; shift
  /usr/bin/time -f "%e s wall, %U s user, %S s sys" timeout 120 $B/bin/stark-eval --target cuda --problem $P --candidate /tmp/cand.mlir "$@" > $R/eval-$N.txt 2> $R/eval-$N.time
}
run default
run spread-only --target-median-error=0
run screened --screen-below-speedup=1000
run screened-spread-only --screen-below-speedup=1000 --target-median-error=0
tar -czf $OUT/results.tgz -C $R .
T=test/Integration/CUDA
timeout ${GPUT:-180} $B/run-tests.sh -v $T/timing-crosscheck.mlir $T/planted-bugs.mlir $T/correct-candidates.mlir $T/substitute-cuda-winner.mlir $T/search-workers-cuda.mlir $T/faults > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
LEFT=$((${TOTAL:-540} - ($(date +%s) - T0)))
if [ $LEFT -ge 230 ]; then
  M=llama_block_b1
  PE=$(ls .devinput/models-$KIND-$M.json 2>/dev/null | head -1); PEERS=; [ -n "$PE" ] && PEERS="--peers-from $PE"
  timeout $LEFT env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label ${KIND}i3-$M --names $M \
    --total-seconds ${SEARCH:-120} --autotune-limit 0 $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
fi
echo "call: $(($(date +%s) - T0)) s" >> $R/gpu.txt
tar -czf $OUT/results.tgz -C $R .
