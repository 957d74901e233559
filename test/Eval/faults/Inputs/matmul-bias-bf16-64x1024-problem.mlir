// A bf16 program of three ops: C = 0, C += A B (64x1024 by 1024x64), Y = C +
// bias, each result rounded to bf16, so the judge may give it the room of
// its own rounding (docs/evaluation.md, "Whole low-precision programs").
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%A: memref<64x1024xbf16>, %B: memref<1024x64xbf16>, %bias: memref<64xbf16>, %Y: memref<64x64xbf16>) {
    %C = memref.alloc() : memref<64x64xbf16>
    %z = arith.constant 0.0 : bf16
    linalg.fill ins(%z : bf16) outs(%C : memref<64x64xbf16>)
    linalg.matmul ins(%A, %B : memref<64x1024xbf16>, memref<1024x64xbf16>) outs(%C : memref<64x64xbf16>)
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%C, %bias : memref<64x64xbf16>, memref<64xbf16>) outs(%Y : memref<64x64xbf16>) {
    ^bb0(%c: bf16, %b: bf16, %o: bf16):
      %s = arith.addf %c, %b : bf16
      linalg.yield %s : bf16
    }
    memref.dealloc %C : memref<64x64xbf16>
    return
  }
}
