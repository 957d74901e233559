// Correct: the program of program-exp-matmul.mlir with its matmul
// computed 3xTF32-style in f32 emulation (hi = top 10 mantissa bits,
// lo = x - hi, hi*hi + (hi*lo + lo*hi)), falling back to the plain
// product where that is not finite: +inf stays +inf.
#map = affine_map<(d0, d1) -> (d0, d1)>
#ma = affine_map<(i, j, k) -> (i, k)>
#mb = affine_map<(i, j, k) -> (k, j)>
#mc = affine_map<(i, j, k) -> (i, j)>
func.func private @split(%x: f32) -> (f32, f32) {
  %mask = arith.constant -8192 : i32
  %bits = arith.bitcast %x : f32 to i32
  %hib = arith.andi %bits, %mask : i32
  %hi = arith.bitcast %hib : i32 to f32
  %lo = arith.subf %x, %hi : f32
  return %hi, %lo : f32, f32
}
func.func @forward(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = arith.constant dense<[[0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250], [0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875], [0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875, 0.2500], [0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875, 0.2500, 0.3125], [0.3750, 0.4375, 0.5000, 0.1250, 0.1875, 0.2500, 0.3125, 0.3750], [0.4375, 0.5000, 0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375], [0.5000, 0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000], [0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250], [0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875], [0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875, 0.2500], [0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875, 0.2500, 0.3125], [0.3750, 0.4375, 0.5000, 0.1250, 0.1875, 0.2500, 0.3125, 0.3750], [0.4375, 0.5000, 0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375], [0.5000, 0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000], [0.1250, 0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250], [0.1875, 0.2500, 0.3125, 0.3750, 0.4375, 0.5000, 0.1250, 0.1875]]> : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<4x16xf32>
  %e = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%ex : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %ey = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ey : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %as:2 = func.call @split(%a) : (f32) -> (f32, f32)
    %bs:2 = func.call @split(%b) : (f32) -> (f32, f32)
    %hh = arith.mulf %as#0, %bs#0 : f32
    %hl = arith.mulf %as#0, %bs#1 : f32
    %lh = arith.mulf %as#1, %bs#0 : f32
    %small = arith.addf %hl, %lh : f32
    %p3 = arith.addf %hh, %small : f32
    %inf = arith.constant 0x7F800000 : f32
    %abs = math.absf %p3 : f32
    %finite = arith.cmpf olt, %abs, %inf : f32
    %ab = arith.mulf %a, %b : f32
    %p = arith.select %finite, %p3, %ab : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
