// Wrong: the long row sums are right; the short ones (4 terms) are scaled
// by 1 + 2^-14, a relative error of 6.1e-5. That is inside the single f32
// bound that the long reduction sets (1e-4) and far outside the bound of a
// 4-term sum (1.5e-5).
#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
module {
  func.func @kernel(%X: memref<16x4096xf32>, %Z: memref<16x4xf32>, %SX: memref<16xf32>, %SZ: memref<16xf32>) {
    linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
        ins(%X : memref<16x4096xf32>) outs(%SX : memref<16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %y, %x : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
        ins(%Z : memref<16x4xf32>) outs(%SZ : memref<16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %y, %x : f32
      linalg.yield %s : f32
    }
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %scale = arith.constant 1.00006103515625 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %SZ[%i] : memref<16xf32>
      %w = arith.mulf %v, %scale : f32
      memref.store %w, %SZ[%i] : memref<16xf32>
    }
    return
  }
}
