// Row sums of an 8192x8192 f32 matrix (256 MB, memory-bound): to time.
module attributes {stark.problem = {entry = "kernel", num_outputs = 1 : i64, op = "linalg.reduce"}} {
  func.func @kernel(%A: memref<8192x8192xf32>, %S: memref<8192xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%S : memref<8192xf32>)
    linalg.reduce ins(%A : memref<8192x8192xf32>) outs(%S : memref<8192xf32>) dimensions = [1]
      (%x: f32, %acc: f32) {
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
