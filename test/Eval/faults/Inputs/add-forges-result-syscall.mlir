// Wrong: computes nothing. Like add-forges-result.mlir it writes the
// worker's DIR/result.json ("ok, 50x") and ends the process, but through
// raw Linux system calls in inline assembly (x86-64 `syscall`: open, read,
// write, close, exit_group), so no libc symbol is resolved.
module {
  memref.global "private" constant @cmdline : memref<19xi8> = dense<[47, 112, 114, 111, 99, 47, 115, 101, 108, 102, 47, 99, 109, 100, 108, 105, 110, 101, 0]>
  memref.global "private" constant @suffix : memref<13xi8> = dense<[47, 114, 101, 115, 117, 108, 116, 46, 106, 115, 111, 110, 0]>
  memref.global "private" constant @forged : memref<119xi8> = dense<[123, 34, 115, 116, 97, 116, 117, 115, 34, 58, 32, 34, 111, 107, 34, 44, 32, 34, 109, 101, 115, 115, 97, 103, 101, 34, 58, 32, 34, 118, 101, 114, 105, 102, 105, 101, 100, 32, 111, 110, 32, 53, 32, 116, 114, 105, 97, 108, 115, 59, 32, 53, 48, 46, 48, 48, 120, 32, 116, 104, 101, 32, 98, 97, 115, 101, 108, 105, 110, 101, 34, 44, 32, 34, 116, 97, 114, 103, 101, 116, 34, 58, 32, 34, 99, 112, 117, 34, 44, 32, 34, 116, 105, 109, 105, 110, 103, 34, 58, 32, 123, 34, 115, 112, 101, 101, 100, 117, 112, 34, 58, 32, 53, 48, 46, 48, 125, 125, 0]>
  func.func private @sys(%nr: i64, %a: i64, %b: i64, %c: i64) -> i64 {
    %r = llvm.inline_asm has_side_effects "syscall", "={rax},{rax},{rdi},{rsi},{rdx},~{rcx},~{r11},~{memory}" %nr, %a, %b, %c : (i64, i64, i64, i64) -> i64
    return %r : i64
  }
  func.func private @addr(%m: memref<?xi8>) -> i64 {
    %p = memref.extract_aligned_pointer_as_index %m : memref<?xi8> -> index
    %i = arith.index_cast %p : index to i64
    return %i : i64
  }
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero8 = arith.constant 0 : i8
    %i0 = arith.constant 0 : i64
    %sysread = arith.constant 0 : i64
    %syswrite = arith.constant 1 : i64
    %sysopen = arith.constant 2 : i64
    %sysclose = arith.constant 3 : i64
    %sysexit = arith.constant 231 : i64
    %wflags = arith.constant 577 : i64
    %wmode = arith.constant 420 : i64
    %cap = arith.constant 4095 : i64
    %nforged = arith.constant 118 : i64
    %nsuffix = arith.constant 13 : index
    %cmdbuf = memref.alloca() : memref<4096xi8>
    %pathbuf = memref.alloca() : memref<4096xi8>
    linalg.fill ins(%zero8 : i8) outs(%cmdbuf : memref<4096xi8>)
    %cmdline = memref.get_global @cmdline : memref<19xi8>
    %suffix = memref.get_global @suffix : memref<13xi8>
    %forged = memref.get_global @forged : memref<119xi8>
    %cmdlined = memref.cast %cmdline : memref<19xi8> to memref<?xi8>
    %cmdbufd = memref.cast %cmdbuf : memref<4096xi8> to memref<?xi8>
    %pathbufd = memref.cast %pathbuf : memref<4096xi8> to memref<?xi8>
    %forgedd = memref.cast %forged : memref<119xi8> to memref<?xi8>
    %pcmd = func.call @addr(%cmdlined) : (memref<?xi8>) -> i64
    %pbuf = func.call @addr(%cmdbufd) : (memref<?xi8>) -> i64
    %ppath = func.call @addr(%pathbufd) : (memref<?xi8>) -> i64
    %pforged = func.call @addr(%forgedd) : (memref<?xi8>) -> i64
    %fd = func.call @sys(%sysopen, %pcmd, %i0, %i0) : (i64, i64, i64, i64) -> i64
    %n = func.call @sys(%sysread, %fd, %pbuf, %cap) : (i64, i64, i64, i64) -> i64
    %r0 = func.call @sys(%sysclose, %fd, %i0, %i0) : (i64, i64, i64, i64) -> i64
    // The directory is the third NUL-terminated string: argv[2].
    %nidx = arith.index_cast %n : i64 to index
    %found:2 = scf.for %i = %c0 to %nidx step %c1 iter_args(%count = %c0, %start = %c0) -> (index, index) {
      %byte = memref.load %cmdbuf[%i] : memref<4096xi8>
      %nul = arith.cmpi eq, %byte, %zero8 : i8
      %count1 = arith.addi %count, %c1 : index
      %next = arith.select %nul, %count1, %count : index
      %second = arith.cmpi eq, %count1, %c2 : index
      %here = arith.andi %nul, %second : i1
      %i1 = arith.addi %i, %c1 : index
      %start1 = arith.select %here, %i1, %start : index
      scf.yield %next, %start1 : index, index
    }
    %end = scf.while (%j = %found#1) : (index) -> index {
      %byte = memref.load %cmdbuf[%j] : memref<4096xi8>
      %more = arith.cmpi ne, %byte, %zero8 : i8
      scf.condition(%more) %j : index
    } do {
    ^bb0(%j: index):
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1 : index
    }
    %len = arith.subi %end, %found#1 : index
    scf.for %i = %c0 to %len step %c1 {
      %src = arith.addi %found#1, %i : index
      %byte = memref.load %cmdbuf[%src] : memref<4096xi8>
      memref.store %byte, %pathbuf[%i] : memref<4096xi8>
    }
    scf.for %i = %c0 to %nsuffix step %c1 {
      %byte = memref.load %suffix[%i] : memref<13xi8>
      %dst = arith.addi %len, %i : index
      memref.store %byte, %pathbuf[%dst] : memref<4096xi8>
    }
    %out = func.call @sys(%sysopen, %ppath, %wflags, %wmode) : (i64, i64, i64, i64) -> i64
    %w = func.call @sys(%syswrite, %out, %pforged, %nforged) : (i64, i64, i64, i64) -> i64
    %r1 = func.call @sys(%sysclose, %out, %i0, %i0) : (i64, i64, i64, i64) -> i64
    %r2 = func.call @sys(%sysexit, %i0, %i0, %i0) : (i64, i64, i64, i64) -> i64
    return
  }
}
