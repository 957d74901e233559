// Wrong: caches C in a mutable global, keyed by four elements of B. A call
// whose key matches the last one copies the cached C out without looking
// at A (in a model, B is a constant weight and A changes on every call).
// Every correctness trial has a new B and misses; the timed runs repeat one
// input set and hit, so the kernel looks right and many times faster.
module {
  memref.global "private" @cache : memref<33x9xf32> = uninitialized
  memref.global "private" @key : memref<4xf32> = dense<0.0>
  memref.global "private" @valid : memref<1xi32> = dense<0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant 1 : i32
    %cache = memref.get_global @cache : memref<33x9xf32>
    %key = memref.get_global @key : memref<4xf32>
    %valid = memref.get_global @valid : memref<1xi32>
    %b0 = memref.load %B[%c0, %c0] : memref<17x9xf32>
    %b1 = memref.load %B[%c1, %c1] : memref<17x9xf32>
    %b2 = memref.load %B[%c2, %c2] : memref<17x9xf32>
    %b3 = memref.load %B[%c3, %c3] : memref<17x9xf32>
    %k0 = memref.load %key[%c0] : memref<4xf32>
    %k1 = memref.load %key[%c1] : memref<4xf32>
    %k2 = memref.load %key[%c2] : memref<4xf32>
    %k3 = memref.load %key[%c3] : memref<4xf32>
    %v = memref.load %valid[%c0] : memref<1xi32>
    %e0 = arith.cmpf oeq, %b0, %k0 : f32
    %e1 = arith.cmpf oeq, %b1, %k1 : f32
    %e2 = arith.cmpf oeq, %b2, %k2 : f32
    %e3 = arith.cmpf oeq, %b3, %k3 : f32
    %ev = arith.cmpi eq, %v, %one : i32
    %a01 = arith.andi %e0, %e1 : i1
    %a23 = arith.andi %e2, %e3 : i1
    %a = arith.andi %a01, %a23 : i1
    %hit = arith.andi %a, %ev : i1
    scf.if %hit {
      memref.copy %cache, %C : memref<33x9xf32> to memref<33x9xf32>
    } else {
      linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
      memref.copy %C, %cache : memref<33x9xf32> to memref<33x9xf32>
      memref.store %b0, %key[%c0] : memref<4xf32>
      memref.store %b1, %key[%c1] : memref<4xf32>
      memref.store %b2, %key[%c2] : memref<4xf32>
      memref.store %b3, %key[%c3] : memref<4xf32>
      memref.store %one, %valid[%c0] : memref<1xi32>
    }
    return
  }
}
