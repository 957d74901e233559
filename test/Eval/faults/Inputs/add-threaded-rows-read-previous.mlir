// Fault: the 7x13 sum on seven threads, one row per shard, where each row
// adds "the previous row's last sum minus what it should be": zero once the
// previous shard has finished, anything before. Right when the shards run
// in order, wrong when a shard overtakes the one before it.
module attributes {stark.cpu.threads = 7 : i64} {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c12 = arith.constant 12 : index
    %c13 = arith.constant 13 : index
    %zero = arith.constant 0.0 : f32
    scf.parallel (%i) = (%c0) to (%c7) step (%c1) {
      %first = arith.cmpi eq, %i, %c0 : index
      %carry = scf.if %first -> (f32) {
        scf.yield %zero : f32
      } else {
        %p = arith.subi %i, %c1 : index
        %done = memref.load %C[%p, %c12] : memref<7x13xf32>
        %pa = memref.load %A[%p, %c12] : memref<7x13xf32>
        %pb = memref.load %B[%p, %c12] : memref<7x13xf32>
        %want = arith.addf %pa, %pb : f32
        %d = arith.subf %done, %want : f32
        scf.yield %d : f32
      }
      scf.for %j = %c0 to %c13 step %c1 {
        %a = memref.load %A[%i, %j] : memref<7x13xf32>
        %b = memref.load %B[%i, %j] : memref<7x13xf32>
        %s = arith.addf %a, %b : f32
        %t = arith.addf %s, %carry : f32
        memref.store %t, %C[%i, %j] : memref<7x13xf32>
      }
      scf.reduce
    }
    return
  }
}
