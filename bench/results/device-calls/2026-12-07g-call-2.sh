#!/bin/bash
# Device call 2 (2026-12-07g): gemm_wgmma_3xtf32 with two producer warpgroups.
set -x
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
B=.devinput/gb/gemm_bench
export NVIDIA_TF32_OVERRIDE=0
( $B "llama" wgtf32; $B "bert" wgtf32; $B "4096" "wgtf32 128x128x32 s3 g8" ) > $OUT/producers.log 2>&1
NCU=/usr/local/cuda/bin/ncu
for v in "Li3ELi8ELb0ELi1E:p1" "Li3ELi8ELb0ELi2E:p2"; do
  re=${v%%:*}; n=${v##*:}
  timeout 150 $NCU --set full --import-source no --kernel-name-base mangled -k regex:$re --launch-count 1 -o $OUT/$n -f $B "llama gate/up" "wgtf32 128x128x32 s3 g8 $n" > $OUT/ncu-$n.log 2>&1
  $NCU -i $OUT/$n.ncu-rep --page details > $OUT/$n-details.txt 2>&1
  $NCU -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-source.csv 2>&1
  rm -f $OUT/$n.ncu-rep
done
ls -la $OUT
