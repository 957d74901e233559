// The matmul as tf32 tensor cores compute it: each input rounded to 10
// mantissa bits (to nearest, ties away from zero, as cvt.rna.tf32.f32),
// products accumulated in f32.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
module {
  func.func @kernel(%a: memref<64x512xf32>, %b: memref<512x64xf32>, %c: memref<64x64xf32>) {
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<64x512xf32>, memref<512x64xf32>) outs(%c : memref<64x64xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %half = arith.constant 4096 : i32
      %mask = arith.constant -8192 : i32
      %xi = arith.bitcast %x : f32 to i32
      %xr = arith.addi %xi, %half : i32
      %xm = arith.andi %xr, %mask : i32
      %xt = arith.bitcast %xm : i32 to f32
      %yi = arith.bitcast %y : f32 to i32
      %yr = arith.addi %yi, %half : i32
      %ym = arith.andi %yr, %mask : i32
      %yt = arith.bitcast %ym : i32 to f32
      %p = arith.mulf %xt, %yt : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
    return
  }
}
