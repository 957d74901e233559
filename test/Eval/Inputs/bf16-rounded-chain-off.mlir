// A planted fault: the fused program of bf16-rounded-chain-fused.mlir
// plus 2^-5, more than the program's own rounding of t explains.
#id = affine_map<(i, j) -> (i, j)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%x: memref<24x40xbf16>, %y: memref<24x40xbf16>) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<24x40xbf16>) outs(%y : memref<24x40xbf16>) {
    ^bb0(%a: bf16, %o: bf16):
      %c3 = arith.constant 3.0 : f32
      %af = arith.extf %a : bf16 to f32
      %t = arith.mulf %af, %c3 : f32
      %m = arith.mulf %c3, %af : f32
      %d0 = arith.subf %t, %m : f32
      %e = arith.constant 0.03125 : f32
      %d = arith.addf %d0, %e : f32
      %r = arith.truncf %d : f32 to bf16
      linalg.yield %r : bf16
    }
    return
  }
}
