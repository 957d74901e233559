// Wrong calling convention: C has 8 columns instead of 9.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x8xf32>) {
    return
  }
}
