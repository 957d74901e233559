// bf16 in and out, m = 320 and k = 520 no multiples of the tiles.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "320x520xbf16,520x264xbf16->320x264xbf16", signature = "0">} {
  func.func @kernel(%a: memref<320x520xbf16>, %b: memref<520x264xbf16>, %c: memref<320x264xbf16>) {
    linalg.matmul ins(%a, %b : memref<320x520xbf16>, memref<520x264xbf16>) outs(%c : memref<320x264xbf16>)
    return
  }
}
