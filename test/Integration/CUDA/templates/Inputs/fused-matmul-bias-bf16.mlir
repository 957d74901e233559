#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)", shapes = "96x64xbf16,64x80xbf16,80xbf16->96x80xbf16", signature = "0">} {
  func.func @kernel(%a: memref<96x64xbf16>, %b: memref<64x80xbf16>, %bias: memref<80xbf16>, %out: memref<96x80xbf16>) {
    %zero = arith.constant 0.000000e+00 : f32
    %c = memref.alloc() : memref<96x80xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<96x80xf32>)
    linalg.matmul ins(%a, %b : memref<96x64xbf16>, memref<64x80xbf16>) outs(%c : memref<96x80xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<96x80xf32>, memref<80xbf16>) outs(%out : memref<96x80xbf16>) {
    ^bb0(%x: f32, %bb: bf16, %o: bf16):
      %w = arith.extf %bb : bf16 to f32
      %y = arith.addf %x, %w : f32
      %r = arith.truncf %y : f32 to bf16
      linalg.yield %r : bf16
    }
    memref.dealloc %c : memref<96x80xf32>
    return
  }
}
