#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "fused(linalg.generic)", shapes = "32x300xi32->32xi32", signature = "bf74f07280d9c62c75c7fb00756b3729">} {
  func.func @kernel(%arg0: memref<32x300xi32>, %arg1: memref<32xi32>) {
    %c0_i32 = arith.constant 0 : i32
    %c2147483647_i32 = arith.constant 2147483647 : i32
    linalg.fill ins(%c0_i32 : i32) outs(%arg1 : memref<32xi32>)
    %alloc = memref.alloc() : memref<32xi32>
    linalg.fill ins(%c2147483647_i32 : i32) outs(%alloc : memref<32xi32>)
    linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<32x300xi32>) outs(%arg1, %alloc : memref<32xi32>, memref<32xi32>) {
    ^bb0(%in: i32, %out: i32, %out_0: i32):
      %0 = linalg.index 1 : index
      %1 = arith.index_cast %0 : index to i32
      %2 = arith.cmpi sgt, %out_0, %in : i32
      %3 = arith.select %2, %in, %out_0 : i32
      %4 = arith.select %2, %1, %out : i32
      linalg.yield %4, %3 : i32, i32
    }
    memref.dealloc %alloc : memref<32xi32>
    return
  }
}

