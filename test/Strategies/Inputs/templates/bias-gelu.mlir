// x + bias broadcast along rows, then erf-GELU.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "128x256xf32,256xf32->128x256xf32", signature = "0">} {
  func.func @kernel(%x: memref<128x256xf32>, %b: memref<256xf32>, %y: memref<128x256xf32>) {
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : memref<128x256xf32>, memref<256xf32>) outs(%y : memref<128x256xf32>) {
      ^bb0(%in: f32, %bias: f32, %out: f32):
        %v = arith.addf %in, %bias : f32
        %s = arith.mulf %v, %rsqrt2 : f32
        %e = math.erf %s : f32
        %p = arith.addf %e, %one : f32
        %h = arith.mulf %v, %half : f32
        %r = arith.mulf %h, %p : f32
        linalg.yield %r : f32
    }
    return
  }
}
