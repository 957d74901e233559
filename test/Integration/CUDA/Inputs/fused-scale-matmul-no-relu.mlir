#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.matmul)", shapes = "70x131xf32,131xf32,131x45xf32->70x45xf32", signature = "0">} {
  func.func @kernel(%x: memref<70x131xf32>, %s: memref<131xf32>, %w: memref<131x45xf32>, %out: memref<70x45xf32>) {
    %init = arith.constant 5.000000e-01 : f32
    %a = memref.alloc() : memref<70x131xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<70x131xf32>, memref<131xf32>) outs(%a : memref<70x131xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %p = arith.mulf %v, %k : f32
      linalg.yield %p : f32
    }
    linalg.fill ins(%init : f32) outs(%out : memref<70x45xf32>)
    linalg.matmul ins(%a, %w : memref<70x131xf32>, memref<131x45xf32>) outs(%out : memref<70x45xf32>)
    memref.dealloc %a : memref<70x131xf32>
    return
  }
}
