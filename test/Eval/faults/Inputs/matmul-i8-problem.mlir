// An 8x64 * 64x8 matmul of i8 into i32 (signed extension); C is read.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<8x64xi8>, %B: memref<64x8xi8>, %C: memref<8x8xi32>) {
    linalg.matmul ins(%A, %B : memref<8x64xi8>, memref<64x8xi8>) outs(%C : memref<8x8xi32>)
    return
  }
}
