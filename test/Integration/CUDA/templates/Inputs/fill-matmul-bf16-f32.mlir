module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "130x72xbf16,72x200xbf16->130x200xf32", signature = "295754b7e4b6c874c093d334735ade54">} {
  func.func @kernel(%arg0: memref<130x72xbf16>, %arg1: memref<72x200xbf16>, %arg2: memref<130x200xf32>) {
    %cst = arith.constant 5.000000e-01 : f32
    linalg.fill ins(%cst : f32) outs(%arg2 : memref<130x200xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<130x72xbf16>, memref<72x200xbf16>) outs(%arg2 : memref<130x200xf32>)
    return
  }
}

