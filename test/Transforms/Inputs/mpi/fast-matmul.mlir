#map = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#map2 = affine_map<(d0) -> (d0 + 3)>
#map3 = affine_map<(d0) -> (d0 + 4)>
#map4 = affine_map<(d0) -> (d0 + 5)>
#map5 = affine_map<(d0) -> (d0 + 6)>
#map6 = affine_map<(d0) -> (d0 + 7)>
module @stark_problem_0 {
  func.func @kernel(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %arg3 = %c0 to %c64 step %c8 {
      scf.for %arg4 = %c0 to %c64 step %c32 {
        %0 = vector.load %arg2[%arg3, %arg4] : memref<64x64xf32>, vector<32xf32>
        %1 = affine.apply #map(%arg3)
        %2 = vector.load %arg2[%1, %arg4] : memref<64x64xf32>, vector<32xf32>
        %3 = affine.apply #map1(%arg3)
        %4 = vector.load %arg2[%3, %arg4] : memref<64x64xf32>, vector<32xf32>
        %5 = affine.apply #map2(%arg3)
        %6 = vector.load %arg2[%5, %arg4] : memref<64x64xf32>, vector<32xf32>
        %7 = affine.apply #map3(%arg3)
        %8 = vector.load %arg2[%7, %arg4] : memref<64x64xf32>, vector<32xf32>
        %9 = affine.apply #map4(%arg3)
        %10 = vector.load %arg2[%9, %arg4] : memref<64x64xf32>, vector<32xf32>
        %11 = affine.apply #map5(%arg3)
        %12 = vector.load %arg2[%11, %arg4] : memref<64x64xf32>, vector<32xf32>
        %13 = affine.apply #map6(%arg3)
        %14 = vector.load %arg2[%13, %arg4] : memref<64x64xf32>, vector<32xf32>
        %15:32 = vector.to_elements %0 : vector<32xf32>
        %16:32 = vector.to_elements %2 : vector<32xf32>
        %17:32 = vector.to_elements %4 : vector<32xf32>
        %18:32 = vector.to_elements %6 : vector<32xf32>
        %19:32 = vector.to_elements %8 : vector<32xf32>
        %20:32 = vector.to_elements %10 : vector<32xf32>
        %21:32 = vector.to_elements %12 : vector<32xf32>
        %22:32 = vector.to_elements %14 : vector<32xf32>
        %23 = vector.from_elements %15#0, %15#1, %15#2, %15#3, %15#4, %15#5, %15#6, %15#7, %15#8, %15#9, %15#10, %15#11, %15#12, %15#13, %15#14, %15#15, %15#16, %15#17, %15#18, %15#19, %15#20, %15#21, %15#22, %15#23, %15#24, %15#25, %15#26, %15#27, %15#28, %15#29, %15#30, %15#31, %16#0, %16#1, %16#2, %16#3, %16#4, %16#5, %16#6, %16#7, %16#8, %16#9, %16#10, %16#11, %16#12, %16#13, %16#14, %16#15, %16#16, %16#17, %16#18, %16#19, %16#20, %16#21, %16#22, %16#23, %16#24, %16#25, %16#26, %16#27, %16#28, %16#29, %16#30, %16#31, %17#0, %17#1, %17#2, %17#3, %17#4, %17#5, %17#6, %17#7, %17#8, %17#9, %17#10, %17#11, %17#12, %17#13, %17#14, %17#15, %17#16, %17#17, %17#18, %17#19, %17#20, %17#21, %17#22, %17#23, %17#24, %17#25, %17#26, %17#27, %17#28, %17#29, %17#30, %17#31, %18#0, %18#1, %18#2, %18#3, %18#4, %18#5, %18#6, %18#7, %18#8, %18#9, %18#10, %18#11, %18#12, %18#13, %18#14, %18#15, %18#16, %18#17, %18#18, %18#19, %18#20, %18#21, %18#22, %18#23, %18#24, %18#25, %18#26, %18#27, %18#28, %18#29, %18#30, %18#31, %19#0, %19#1, %19#2, %19#3, %19#4, %19#5, %19#6, %19#7, %19#8, %19#9, %19#10, %19#11, %19#12, %19#13, %19#14, %19#15, %19#16, %19#17, %19#18, %19#19, %19#20, %19#21, %19#22, %19#23, %19#24, %19#25, %19#26, %19#27, %19#28, %19#29, %19#30, %19#31, %20#0, %20#1, %20#2, %20#3, %20#4, %20#5, %20#6, %20#7, %20#8, %20#9, %20#10, %20#11, %20#12, %20#13, %20#14, %20#15, %20#16, %20#17, %20#18, %20#19, %20#20, %20#21, %20#22, %20#23, %20#24, %20#25, %20#26, %20#27, %20#28, %20#29, %20#30, %20#31, %21#0, %21#1, %21#2, %21#3, %21#4, %21#5, %21#6, %21#7, %21#8, %21#9, %21#10, %21#11, %21#12, %21#13, %21#14, %21#15, %21#16, %21#17, %21#18, %21#19, %21#20, %21#21, %21#22, %21#23, %21#24, %21#25, %21#26, %21#27, %21#28, %21#29, %21#30, %21#31, %22#0, %22#1, %22#2, %22#3, %22#4, %22#5, %22#6, %22#7, %22#8, %22#9, %22#10, %22#11, %22#12, %22#13, %22#14, %22#15, %22#16, %22#17, %22#18, %22#19, %22#20, %22#21, %22#22, %22#23, %22#24, %22#25, %22#26, %22#27, %22#28, %22#29, %22#30, %22#31 : vector<8x32xf32>
        %24 = scf.for %arg5 = %c0 to %c64 step %c1 iter_args(%arg6 = %23) -> (vector<8x32xf32>) {
          %40 = vector.load %arg0[%arg3, %arg5] : memref<64x64xf32>, vector<1xf32>
          %41 = affine.apply #map(%arg3)
          %42 = vector.load %arg0[%41, %arg5] : memref<64x64xf32>, vector<1xf32>
          %43 = affine.apply #map1(%arg3)
          %44 = vector.load %arg0[%43, %arg5] : memref<64x64xf32>, vector<1xf32>
          %45 = affine.apply #map2(%arg3)
          %46 = vector.load %arg0[%45, %arg5] : memref<64x64xf32>, vector<1xf32>
          %47 = affine.apply #map3(%arg3)
          %48 = vector.load %arg0[%47, %arg5] : memref<64x64xf32>, vector<1xf32>
          %49 = affine.apply #map4(%arg3)
          %50 = vector.load %arg0[%49, %arg5] : memref<64x64xf32>, vector<1xf32>
          %51 = affine.apply #map5(%arg3)
          %52 = vector.load %arg0[%51, %arg5] : memref<64x64xf32>, vector<1xf32>
          %53 = affine.apply #map6(%arg3)
          %54 = vector.load %arg0[%53, %arg5] : memref<64x64xf32>, vector<1xf32>
          %55 = vector.to_elements %40 : vector<1xf32>
          %56 = vector.to_elements %42 : vector<1xf32>
          %57 = vector.to_elements %44 : vector<1xf32>
          %58 = vector.to_elements %46 : vector<1xf32>
          %59 = vector.to_elements %48 : vector<1xf32>
          %60 = vector.to_elements %50 : vector<1xf32>
          %61 = vector.to_elements %52 : vector<1xf32>
          %62 = vector.to_elements %54 : vector<1xf32>
          %63 = vector.from_elements %55, %56, %57, %58, %59, %60, %61, %62 : vector<8x1xf32>
          %64 = vector.broadcast %63 : vector<8x1xf32> to vector<32x8x1xf32>
          %65 = vector.transpose %64, [1, 0, 2] : vector<32x8x1xf32> to vector<8x32x1xf32>
          %66 = vector.load %arg1[%arg5, %arg4] : memref<64x64xf32>, vector<32xf32>
          %67 = vector.broadcast %66 : vector<32xf32> to vector<8x1x32xf32>
          %68 = vector.transpose %67, [0, 2, 1] : vector<8x1x32xf32> to vector<8x32x1xf32>
          %69 = arith.mulf %65, %68 : vector<8x32x1xf32>
          %70 = vector.shape_cast %arg6 : vector<8x32xf32> to vector<256xf32>
          %71 = vector.shape_cast %69 : vector<8x32x1xf32> to vector<256xf32>
          %72 = arith.addf %71, %70 : vector<256xf32>
          %73 = vector.shape_cast %72 : vector<256xf32> to vector<8x32xf32>
          scf.yield %73 : vector<8x32xf32>
        }
        %25 = vector.extract %24[0] : vector<32xf32> from vector<8x32xf32>
        vector.store %25, %arg2[%arg3, %arg4] : memref<64x64xf32>, vector<32xf32>
        %26 = affine.apply #map(%arg3)
        %27 = vector.extract %24[1] : vector<32xf32> from vector<8x32xf32>
        vector.store %27, %arg2[%26, %arg4] : memref<64x64xf32>, vector<32xf32>
        %28 = affine.apply #map1(%arg3)
        %29 = vector.extract %24[2] : vector<32xf32> from vector<8x32xf32>
        vector.store %29, %arg2[%28, %arg4] : memref<64x64xf32>, vector<32xf32>
        %30 = affine.apply #map2(%arg3)
        %31 = vector.extract %24[3] : vector<32xf32> from vector<8x32xf32>
        vector.store %31, %arg2[%30, %arg4] : memref<64x64xf32>, vector<32xf32>
        %32 = affine.apply #map3(%arg3)
        %33 = vector.extract %24[4] : vector<32xf32> from vector<8x32xf32>
        vector.store %33, %arg2[%32, %arg4] : memref<64x64xf32>, vector<32xf32>
        %34 = affine.apply #map4(%arg3)
        %35 = vector.extract %24[5] : vector<32xf32> from vector<8x32xf32>
        vector.store %35, %arg2[%34, %arg4] : memref<64x64xf32>, vector<32xf32>
        %36 = affine.apply #map5(%arg3)
        %37 = vector.extract %24[6] : vector<32xf32> from vector<8x32xf32>
        vector.store %37, %arg2[%36, %arg4] : memref<64x64xf32>, vector<32xf32>
        %38 = affine.apply #map6(%arg3)
        %39 = vector.extract %24[7] : vector<32xf32> from vector<8x32xf32>
        vector.store %39, %arg2[%38, %arg4] : memref<64x64xf32>, vector<32xf32>
      }
    }
    return
  }
}
