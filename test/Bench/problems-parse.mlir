// The benchmark problems: every bench/problems/*.mlir file is what the table
// in bench/problems/gen.py generates, carries a complete `stark-bench`
// header whose twin and plain-Python reference exist in twins.py (the
// reference runs on the header's check shapes), parses with stark-opt and
// has at least one hot op; there are at least 40 level-1 problems and at
// least 10 fused chains. Hot ops only, no search: it stays fast.
//
// RUN: %python %stark_src_root/bench/problems/gen.py --check
// RUN: %python %stark_src_root/bench/problems/gen.py --lint stark-opt | FileCheck %s --implicit-check-not=FAIL

// CHECK: ok matmul_rect_bf16.mlir: 2 hot ops
// CHECK: ok matmul_square_bf16.mlir: 2 hot ops
// CHECK: problems: {{[0-9]+}}, fused {{[1-9][0-9]+}}, level1 {{[4-9][0-9]}}, failing: 0
