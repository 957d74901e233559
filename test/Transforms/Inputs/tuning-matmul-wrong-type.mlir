module {
  func.func @kernel(%a: memref<16x8xf16>, %b: memref<8x4xf16>, %c: memref<16x4xf16>) {
    return
  }
}
