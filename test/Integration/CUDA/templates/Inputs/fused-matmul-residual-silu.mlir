#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic,linalg.generic)", shapes = "70x3001xf32,3001x45xf32,70xf32,70x45xf32->70x45xf32", signature = "0">} {
  func.func @kernel(%a: memref<70x3001xf32>, %b: memref<3001x45xf32>, %scale: memref<70xf32>, %res: memref<70x45xf32>, %out: memref<70x45xf32>) {
    %init = arith.constant 2.500000e-01 : f32
    %c = memref.alloc() : memref<70x45xf32>
    linalg.fill ins(%init : f32) outs(%c : memref<70x45xf32>)
    linalg.matmul ins(%a, %b : memref<70x3001xf32>, memref<3001x45xf32>) outs(%c : memref<70x45xf32>)
    %t = memref.alloc() : memref<70x45xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%c, %scale, %res : memref<70x45xf32>, memref<70xf32>, memref<70x45xf32>) outs(%t : memref<70x45xf32>) {
    ^bb0(%x: f32, %s: f32, %r: f32, %o: f32):
      %y = arith.mulf %x, %s : f32
      %z = arith.addf %y, %r : f32
      linalg.yield %z : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%t : memref<70x45xf32>) outs(%out : memref<70x45xf32>) {
    ^bb0(%z: f32, %o: f32):
      %one = arith.constant 1.000000e+00 : f32
      %n = arith.negf %z : f32
      %e = math.exp %n : f32
      %d = arith.addf %e, %one : f32
      %r = arith.divf %z, %d : f32
      linalg.yield %r : f32
    }
    memref.dealloc %c : memref<70x45xf32>
    memref.dealloc %t : memref<70x45xf32>
    return
  }
}
