// Wrong: never writes row 6 of the output.
module {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c13 = arith.constant 13 : index
    scf.for %i = %c0 to %c6 step %c1 {
      scf.for %j = %c0 to %c13 step %c1 {
        %a = memref.load %A[%i, %j] : memref<7x13xf32>
        %b = memref.load %B[%i, %j] : memref<7x13xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %C[%i, %j] : memref<7x13xf32>
      }
    }
    return
  }
}
