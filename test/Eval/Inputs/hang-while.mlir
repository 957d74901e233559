// Hangs: an scf.while whose condition is always true. The store in its body
// is a side effect, so no pass may delete the loop.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %r = scf.while (%x = %one) : (f32) -> f32 {
      %true = arith.constant true
      scf.condition(%true) %x : f32
    } do {
    ^bb0(%y: f32):
      %next = arith.addf %y, %one : f32
      memref.store %next, %C[%c0, %c0] : memref<33x9xf32>
      scf.yield %next : f32
    }
    return
  }
}
