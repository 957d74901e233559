// Control: the 7x13 sum on seven threads, one row per shard; no shard
// reads what another writes.
module attributes {stark.cpu.threads = 7 : i64} {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    scf.parallel (%i) = (%c0) to (%c7) step (%c1) {
      scf.for %j = %c0 to %c13 step %c1 {
        %a = memref.load %A[%i, %j] : memref<7x13xf32>
        %b = memref.load %B[%i, %j] : memref<7x13xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %C[%i, %j] : memref<7x13xf32>
      }
      scf.reduce
    }
    return
  }
}
