#!/bin/bash
# Device call 1 (2026-12-07g): where gemm_wgmma_3xtf32's stage time goes.
set -x
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv > $OUT/gpu.txt 2>&1
B=.devinput/gb/gemm_bench
export NVIDIA_TF32_OVERRIDE=0
( $B "llama gate/up" wgtf32; $B "llama proj" wgtf32; $B "4096" "wgtf32 128x128x32 s3 g8" ) > $OUT/probes.log 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> $OUT/probes.log
timeout 200 $NCU --set full --import-source no --kernel-name-base mangled -k regex:ELi3ELi8ELb0ELi0E --launch-count 1 -o $OUT/base -f $B "llama gate/up" "wgtf32 128x128x32 s3 g8" > $OUT/ncu-run.log 2>&1
timeout 120 $NCU --set full --import-source no --kernel-name-base mangled -k regex:ELi3ELi8ELb0ELi4E --launch-count 1 -o $OUT/p4 -f $B "llama gate/up" "probe4" >> $OUT/ncu-run.log 2>&1
for r in base p4; do
  $NCU -i $OUT/$r.ncu-rep --page details > $OUT/$r-details.txt 2>&1
  $NCU -i $OUT/$r.ncu-rep --page source --print-source sass --csv > $OUT/$r-source.csv 2>&1
done
ls -la $OUT
