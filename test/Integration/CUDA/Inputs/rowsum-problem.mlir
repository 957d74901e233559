// Row sums of a 1023x997 f32 matrix.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.reduce">} {
  func.func @kernel(%A: memref<1023x997xf32>, %S: memref<1023xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%S : memref<1023xf32>)
    linalg.reduce ins(%A : memref<1023x997xf32>) outs(%S : memref<1023xf32>) dimensions = [1]
      (%x: f32, %acc: f32) {
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
