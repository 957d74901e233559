// Correct: each row of C held in a vector of 8 (columns 0-7) across the
// whole reduction, a row of B loaded as a vector and A[i, k] broadcast;
// column 8 (the tail) one element at a time.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    scf.for %i = %c0 to %c33 step %c1 {
      %init = vector.load %C[%i, %c0] : memref<33x9xf32>, vector<8xf32>
      %tinit = memref.load %C[%i, %c8] : memref<33x9xf32>
      %r:2 = scf.for %k = %c0 to %c17 step %c1 iter_args(%acc = %init, %tacc = %tinit) -> (vector<8xf32>, f32) {
        %a = memref.load %A[%i, %k] : memref<33x17xf32>
        %va = vector.broadcast %a : f32 to vector<8xf32>
        %vb = vector.load %B[%k, %c0] : memref<17x9xf32>, vector<8xf32>
        %p = arith.mulf %va, %vb : vector<8xf32>
        %s = arith.addf %acc, %p : vector<8xf32>
        %bt = memref.load %B[%k, %c8] : memref<17x9xf32>
        %pt = arith.mulf %a, %bt : f32
        %st = arith.addf %tacc, %pt : f32
        scf.yield %s, %st : vector<8xf32>, f32
      }
      vector.store %r#0, %C[%i, %c0] : memref<33x9xf32>, vector<8xf32>
      memref.store %r#1, %C[%i, %c8] : memref<33x9xf32>
    }
    return
  }
}
