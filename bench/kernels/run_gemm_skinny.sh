#!/bin/sh
# Times gemm_skinny (the first four of its enumerated parameter sets)
# against gemm_3xtf32's first pick (what these problems got before the
# family existed) on the few-row f32 products of the model zoo, each a fill
# + matmul: VGG-16's three classifier layers at batch 1 (B K x N, as the
# exports write them) and its first at batch 8, MobileNetV3-small's
# classifier, and the LLaMA block's projections of one token (B the N x K
# weight). Every candidate is verified and timed by stark-eval (L2 flushed,
# median); B's bytes over the time give the bandwidth.
# Usage: run_gemm_skinny.sh <folder with stark-template and stark-eval> <out folder>
set -u
bin=$1
out=$2
mkdir -p "$out"
. "$(dirname "$0")/template_bench.sh"
# SKINNY_SHAPES: other shapes, "M N K nk|kn" separated by semicolons;
# SKINNY_PLANS: how many of gemm_skinny's plans to time (default 4).
shapes=${SKINNY_SHAPES:-"1 4096 25088 kn;1 4096 4096 kn;1 1000 4096 kn;8 4096 25088 kn;1 1024 576 kn;1 5632 2048 nk;1 2048 5632 nk;1 2048 2048 nk"}
IFS=';'
for shape in $shapes; do
  IFS=' '
  set -- $shape
  p=$(problem "$1" "$2" "$3" "$4")
  l="$1x$2x$3_$4"
  bytes=$(($2 * $3 * 4))
  i=0
  "$bin/stark-template" --problem "$p" --list | sed -n '/^gemm_skinny/,/^[a-z]/p' | grep '^  ' | head -"${SKINNY_PLANS:-4}" |
    while read -r params; do
      i=$((i + 1))
      run "$p" gemm_skinny "$params" "${l}_skinny_$i" "$bytes"
    done
  run "$p" gemm_3xtf32 "" "${l}_3xtf32_first" "$bytes"
done
rm -f "$out"/*.mlir
