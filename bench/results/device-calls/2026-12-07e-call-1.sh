#!/bin/bash
# Device call 1 (2026-12-07, fourteenth session). Carry: .bundle/b3 (bundle
# of main at e4fd65f: the thirteenth session's pool fusion and coverage
# reserve; batch-1 1x1 convolutions addressed as plain products; timing
# loops that stop once the IQR is within the event clock's resolution;
# guards read back with one wait) and .devinput/ (the thirteenth session's
# torch peers of MobileNetV3-small,
# bench/results/2026-12-07c-h100/call-2/models-h100c2-mobilenet_v3_small_b1.json,
# for --peers-from on an H100; on an H200 the peers are timed afresh).
# 1. MobileNetV3-small searched for 150 s, and timed again with its launches
#    queued first (the gated run).
# 2. The whole GPU suite (last run in full on 2026-12-07c, 50 of 51), with
#    what is left of the call's TOTAL (default 560) s (on an H200, where the peers take
#    longer, the suite may be cut short).
T0=$(date +%s)
BUNDLE=.bundle/b3/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
H100=0; grep -q H100 $R/gpu.txt && H100=1
for M in mobilenet_v3_small_b1; do
  L=h100e1; PEERS=
  if [ $H100 = 1 ]; then P=$(ls .devinput/models-h100*-$M.json 2>/dev/null | head -1); [ -n "$P" ] && PEERS="--peers-from $P"; else L=h200e1; fi
  LIMIT=260; [ $H100 = 1 ] || LIMIT=330
  timeout $LIMIT env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M \
    --total-seconds 150 --autotune-limit 0 $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done
LEFT=$((${TOTAL:-560} - ($(date +%s) - T0)))
[ $LEFT -gt 330 ] && LEFT=330
echo "suite limit ${LEFT}s" > $R/cuda-lit-all.log
if [ $LEFT -ge 30 ]; then
  timeout $LEFT $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA >> $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
fi
tar -czf $OUT/results.tgz -C $R .
