//===- CudaCompileTest.cpp - The cuda target's compile half, no GPU -------===//

#include "stark/Target/CudaCompile.h"
#include "stark/Target/CompileCache.h"
#include "stark/Target/CudaTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::stark;

namespace {

class CudaCompileTest : public ::testing::Test {
protected:
  CudaCompileTest() {
    DialectRegistry registry;
    registerCudaTargetDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef ir) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module) << "failed to parse";
    return module;
  }

  /// Parses `ir` and lowers it for sm_90a; null (with a test failure) when
  /// either fails. Every lowering here is also one the cuda target's guards
  /// accept (checkLoweredCudaCandidate).
  OwningOpRef<ModuleOp> lowered(StringRef ir) {
    OwningOpRef<ModuleOp> module = parse(ir);
    if (!module)
      return nullptr;
    std::string error;
    if (failed(lowerModuleForCuda(*module, CudaArch(), error))) {
      ADD_FAILURE() << error;
      return nullptr;
    }
    EXPECT_TRUE(succeeded(checkLoweredCudaCandidate(*module, error))) << error;
    return module;
  }

  /// Lowers `ir` and returns what the guards say of it ("" when it passes).
  std::string guardsOf(StringRef ir) {
    OwningOpRef<ModuleOp> module = parse(ir);
    if (!module)
      return "does not parse";
    std::string error;
    if (failed(lowerModuleForCuda(*module, CudaArch(), error)))
      return "does not lower: " + error;
    if (failed(checkLoweredCudaCandidate(*module, error)))
      return error;
    return "";
  }

  /// Lowers `ir` for sm_90a and returns the PTX, or "" (with a test
  /// failure) when lowering fails.
  std::string ptxOf(StringRef ir) {
    OwningOpRef<ModuleOp> module = parse(ir);
    if (!module)
      return "";
    std::string error;
    FailureOr<std::string> ptx =
        compileGpuModuleToPtx(*module, CudaArch(), error);
    EXPECT_TRUE(succeeded(ptx)) << error;
    if (succeeded(ptx)) {
      EXPECT_TRUE(succeeded(checkLoweredCudaCandidate(*module, error)))
          << error;
    }
    return succeeded(ptx) ? *ptx : "";
  }

  MLIRContext context;
};

// The baseline: a problem is plain linalg on memrefs.
constexpr StringLiteral kMatmulProblem = R"mlir(
func.func @matmul(%a: memref<63x33xf32>, %b: memref<33x47xf32>,
                  %c: memref<63x47xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<63x47xf32>)
  linalg.matmul ins(%a, %b : memref<63x33xf32>, memref<33x47xf32>)
                outs(%c : memref<63x47xf32>)
  return
}
)mlir";

TEST_F(CudaCompileTest, LinalgProblemLowersToSm90aPtx) {
  std::string ptx = ptxOf(kMatmulProblem);
  EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".version 8.0"), std::string::npos);
  // fill and matmul are one kernel each.
  size_t entries = 0;
  for (size_t at = ptx.find(".entry"); at != std::string::npos;
       at = ptx.find(".entry", at + 1))
    ++entries;
  EXPECT_EQ(entries, 2u);
}

TEST_F(CudaCompileTest, ProblemHostCodeBecomesLaunchesOnly) {
  OwningOpRef<ModuleOp> module = lowered(kMatmulProblem);
  ASSERT_TRUE(module);
  // The host entry takes the expanded descriptors: 3 memrefs of rank 2.
  auto entry = module->lookupSymbol("matmul");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->getName().getStringRef(), "llvm.func");
  EXPECT_EQ(collectEmbeddedPtx(*module).size(), 2u);
}

TEST_F(CudaCompileTest, ReductionsLowerIncludingAFullReduction) {
  std::string ptx = ptxOf(R"mlir(
func.func @rowsum(%a: memref<33x1000xf32>, %b: memref<33xf32>) {
  linalg.reduce ins(%a : memref<33x1000xf32>) outs(%b : memref<33xf32>)
    dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}
func.func @total(%a: memref<1000xf32>, %b: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%b : memref<f32>)
  linalg.reduce ins(%a : memref<1000xf32>) outs(%b : memref<f32>)
    dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}
)mlir");
  EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(ptx.find("rowsum_kernel"), std::string::npos);
  EXPECT_NE(ptx.find("total_kernel"), std::string::npos);
}

// Regression: creating the one-thread launch of a serial nest used to crash
// when nothing had loaded the GPU dialect yet (a fresh context, as in the
// evaluator's worker).
TEST(CudaCompileFreshContextTest, SerialReductionInAFreshContext) {
  MLIRContext fresh;
  DialectRegistry registry;
  registerCudaTargetDialects(registry);
  fresh.appendDialectRegistry(registry);
  fresh.loadDialect<func::FuncDialect, linalg::LinalgDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func @dot(%a: memref<1003xf32>, %b: memref<1003xf32>, %y: memref<f32>) {
  linalg.dot ins(%a, %b : memref<1003xf32>, memref<1003xf32>)
             outs(%y : memref<f32>)
  return
}
)mlir",
                                                             &fresh);
  ASSERT_TRUE(module);
  std::string error;
  FailureOr<std::string> ptx =
      compileGpuModuleToPtx(*module, CudaArch(), error);
  ASSERT_TRUE(succeeded(ptx)) << error;
  EXPECT_NE(ptx->find(".entry"), std::string::npos);
}

// A column reduction (reduction dimension outermost) becomes one kernel over
// the columns, not a host loop of launches.
TEST_F(CudaCompileTest, ColumnReductionIsOneKernelOverTheColumns) {
  OwningOpRef<ModuleOp> module = lowered(R"mlir(
func.func @colmin(%x: memref<513x130xf32>, %y: memref<130xf32>) {
  linalg.reduce ins(%x : memref<513x130xf32>) outs(%y : memref<130xf32>)
    dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.minimumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
)mlir");
  ASSERT_TRUE(module);
  SmallVector<std::string> ptx = collectEmbeddedPtx(*module);
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_NE(ptx[0].find("min.NaN.f32"), std::string::npos) << ptx[0];
  // The host entry launches once: no loop around the launch.
  unsigned launches = 0;
  module->walk([&](gpu::LaunchFuncOp) { ++launches; });
  EXPECT_EQ(launches, 1u);
  module->walk([&](LLVM::LLVMFuncOp f) {
    if (f.getName() == "colmin") {
      EXPECT_EQ(f.getBody().getBlocks().size(), 1u)
          << "a loop on the host around the launch";
    }
  });
}

// A whole program after bufferization: a weight in a memref.global, a copy
// into a padded temporary, a free under a condition. Host code may touch
// none of them: the copy becomes a kernel, the free a gpu.dealloc, and the
// weight is read through its device copy.
TEST_F(CudaCompileTest, WholeProgramBuffersMoveToTheDevice) {
  OwningOpRef<ModuleOp> module = lowered(R"mlir(
memref.global "private" constant @weight : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @forward(%x: memref<4xf32>, %y: memref<6xf32>, %keep: i1) {
  %w = memref.get_global @weight : memref<4xf32>
  %padded = memref.alloc() : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%padded : memref<6xf32>)
  %inner = memref.subview %padded[1] [4] [1]
      : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %x, %inner : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%w : memref<4xf32>) outs(%inner : memref<4xf32, strided<[1], offset: 1>>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  }
  memref.copy %padded, %y : memref<6xf32> to memref<6xf32>
  scf.if %keep {
    memref.dealloc %padded : memref<6xf32>
  }
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto forward = module->lookupSymbol<LLVM::LLVMFuncOp>("forward");
  ASSERT_TRUE(forward);
  unsigned deviceCopies = 0, hostCopies = 0, frees = 0;
  forward.walk([&](LLVM::CallOp call) {
    StringRef callee = call.getCallee().value_or("");
    deviceCopies += callee == kDeviceCopyOfGlobalSymbol;
    hostCopies += callee == "memrefCopy";
    frees += callee == "mgpuMemFree" || callee == "free";
    EXPECT_NE(callee, "free") << "a host free of a device buffer";
  });
  forward.walk([&](Operation *op) {
    EXPECT_FALSE(isa<LLVM::MemcpyOp>(op)) << "a host memcpy of device memory";
  });
  EXPECT_EQ(deviceCopies, 1u);
  EXPECT_EQ(hostCopies, 0u);
  EXPECT_EQ(frees, 1u);
  // fill, both copies and the product: one kernel each.
  unsigned launches = 0;
  module->walk([&](gpu::LaunchFuncOp) { ++launches; });
  EXPECT_EQ(launches, 4u);
}

// A whole program whose full reduction (a serial nest with results once
// its accumulator is promoted) comes before temporaries it allocates and
// frees: the one-thread launch of the serial code must leave the host's
// allocations, frees and stream waits on the host (a gpu.wait inside a
// kernel cannot be lowered).
TEST_F(CudaCompileTest, SerialCodeBeforeTemporariesKeepsWaitsOnTheHost) {
  OwningOpRef<ModuleOp> module = lowered(R"mlir(
func.func @forward(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %sum = memref.alloc() : memref<f32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%sum : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%sum : memref<f32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  }
  %tmp = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> ()>,
                                   affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<4x8xf32>, memref<f32>)
      outs(%tmp : memref<4x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.subf %a, %s : f32
    linalg.yield %r : f32
  }
  memref.dealloc %sum : memref<f32>
  memref.copy %tmp, %y : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %tmp : memref<4x8xf32>
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto forward = module->lookupSymbol<LLVM::LLVMFuncOp>("forward");
  ASSERT_TRUE(forward);
  unsigned allocs = 0, frees = 0;
  forward.walk([&](LLVM::CallOp call) {
    StringRef callee = call.getCallee().value_or("");
    allocs += callee == "mgpuMemAlloc";
    frees += callee == "mgpuMemFree";
  });
  EXPECT_EQ(allocs, 2u);
  EXPECT_EQ(frees, 2u);
}

// linalg.softmax on buffers lowers through its decomposition, with the
// temporaries on the device.
TEST_F(CudaCompileTest, SoftmaxOnBuffersLowersWithDeviceTemporaries) {
  OwningOpRef<ModuleOp> module = lowered(R"mlir(
func.func @softmax(%x: memref<33x1000xf32>, %y: memref<33x1000xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<33x1000xf32>)
                              outs(%y : memref<33x1000xf32>)
  return
}
)mlir");
  ASSERT_TRUE(module);
  // fill, max, exp, fill, sum, divide.
  SmallVector<std::string> ptx = collectEmbeddedPtx(*module);
  size_t entries = 0;
  for (const std::string &text : ptx)
    for (size_t at = text.find(".entry"); at != std::string::npos;
         at = text.find(".entry", at + 1))
      ++entries;
  EXPECT_EQ(entries, 6u);
  unsigned allocs = 0, frees = 0;
  module->walk([&](LLVM::CallOp call) {
    if (!call.getCallee())
      return;
    allocs += *call.getCallee() == "mgpuMemAlloc";
    frees += *call.getCallee() == "mgpuMemFree";
  });
  EXPECT_EQ(allocs, 2u);
  EXPECT_EQ(frees, 2u);
}

TEST_F(CudaCompileTest, MathLowersThroughLibdevice) {
  std::string ptx = ptxOf(R"mlir(
func.func @expo(%a: memref<1000xf32>, %b: memref<1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                   affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<1000xf32>) outs(%b : memref<1000xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}
)mlir");
  EXPECT_NE(ptx.find(".entry"), std::string::npos);
  // libdevice's expf is linked in, not left as an external call.
  EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << ptx;
}

TEST_F(CudaCompileTest, GpuDialectCandidateWithLaunchLowersToPtx) {
  std::string ptx = ptxOf(R"mlir(
func.func @scale(%a: memref<1000xf32>, %b: memref<1000xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %n = arith.constant 1000 : index
  %two = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c256 : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi slt, %i, %n : index
    scf.if %inside {
      %v = memref.load %a[%i] : memref<1000xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %b[%i] : memref<1000xf32>
    }
    gpu.terminator
  }
  return
}
)mlir");
  EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(ptx.find(".entry scale_kernel"), std::string::npos) << ptx;
}

// A GPU-dialect candidate written by anyone is judged on its lowered form:
// the kernel's PTX reads no clock, the host declares nothing from libc.
TEST_F(CudaCompileTest, GuardsRejectClocksAndLibcOnTheMlirPath) {
  std::string error = guardsOf(R"mlir(
func.func @timed(%a: memref<256xi64>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %t = nvvm.read.ptx.sreg.clock64 : i64
    memref.store %t, %a[%tx] : memref<256xi64>
    gpu.terminator
  }
  return
}
)mlir");
  EXPECT_NE(error.find("clock read: reads the special register %clock64"),
            std::string::npos)
      << error;
  error = guardsOf(R"mlir(
func.func private @fopen(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
func.func @scale(%a: memref<4xf32>) {
  return
}
)mlir");
  EXPECT_NE(error.find("the function 'fopen' is not defined in the candidate"),
            std::string::npos)
      << error;
}

TEST_F(CudaCompileTest, GpuModuleCandidateIsRetargetedToTheDevice) {
  // A candidate that names another chip still gets code for this one.
  std::string ptx = ptxOf(R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @copy(%a: memref<64xf32>, %b: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<64xf32>
      memref.store %v, %b[%t] : memref<64xf32>
      gpu.return
    }
  }
  func.func @copy(%a: memref<64xf32>, %b: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%a : memref<64xf32>,
                                         %b : memref<64xf32>)
    return
  }
}
)mlir");
  EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("sm_80"), std::string::npos);
  EXPECT_NE(ptx.find(".entry copy"), std::string::npos);
}

TEST_F(CudaCompileTest, UnmappableHostLoopIsRejected) {
  // A parallel loop with a reduction is not mapped to the GPU; left on the
  // host it would dereference device pointers.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @bad(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%i] : memref<4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %sum, %b[%c0] : memref<4xf32>
  return
}
)mlir");
  ASSERT_TRUE(module);
  std::string error;
  EXPECT_TRUE(failed(lowerModuleForCuda(*module, CudaArch(), error)));
  EXPECT_FALSE(error.empty());
}

TEST_F(CudaCompileTest, ArchFollowsComputeCapability) {
  CudaArch hopper = CudaArch::forComputeCapability(9, 0);
  EXPECT_EQ(hopper.chip, "sm_90a");
  EXPECT_EQ(hopper.features, "+ptx80");
  CudaArch ampere = CudaArch::forComputeCapability(8, 6);
  EXPECT_EQ(ampere.chip, "sm_86");
  EXPECT_EQ(ampere.features, "");
}

//===----------------------------------------------------------------------===//
// CUDA C++
//===----------------------------------------------------------------------===//

constexpr StringLiteral kScaleSource = R"cuda(
extern "C" __global__ void scale(const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000)
    b[i] = 2.0f * a[i];
}
template <int N> __global__ void fill(float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    b[i] = 1.0f;
}
template __global__ void fill<1000>(float *);
)cuda";

TEST_F(CudaCompileTest, NvrtcCompilesCudaSourceToPtxAndCubin) {
  std::string reason;
  if (!isNvrtcAvailable(reason))
    GTEST_SKIP() << reason;
  std::string error;
  FailureOr<NvrtcOutput> out = compileCudaSourceWithNvrtc(
      kScaleSource, {"scale", "fill<1000>"}, "sm_90a", {}, error);
  ASSERT_TRUE(succeeded(out)) << error;
  EXPECT_NE(out->ptx.find(".target sm_90a"), std::string::npos) << out->ptx;
  EXPECT_NE(out->ptx.find(".entry scale"), std::string::npos);
  EXPECT_FALSE(out->cubin.empty());
  EXPECT_EQ(out->loweredNames.lookup("scale"), "scale");
  // A template instance resolves to its mangled symbol.
  std::string fill = out->loweredNames.lookup("fill<1000>");
  EXPECT_NE(fill.find("_Z"), std::string::npos) << fill;
  EXPECT_NE(out->ptx.find(fill), std::string::npos);
}

TEST_F(CudaCompileTest, NvrtcOutputComesBackFromTheCompileCache) {
  std::string reason;
  if (!isNvrtcAvailable(reason))
    GTEST_SKIP() << reason;
  SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("stark-cache-test", dir));
  auto cleanup =
      llvm::scope_exit([&] { llvm::sys::fs::remove_directories(dir); });
  CompileCache cache(std::string(dir.str()));
  std::string error;
  FailureOr<NvrtcOutput> first = compileCudaSourceWithNvrtc(
      kScaleSource, {"scale", "fill<1000>"}, "sm_90a", {}, error, &cache);
  ASSERT_TRUE(succeeded(first)) << error;
  EXPECT_EQ(cache.getHits(), 0u);
  FailureOr<NvrtcOutput> second = compileCudaSourceWithNvrtc(
      kScaleSource, {"scale", "fill<1000>"}, "sm_90a", {}, error, &cache);
  ASSERT_TRUE(succeeded(second)) << error;
  EXPECT_EQ(cache.getHits(), 1u);
  EXPECT_EQ(second->ptx, first->ptx);
  EXPECT_EQ(second->cubin, first->cubin);
  EXPECT_EQ(second->loweredNames.lookup("fill<1000>"),
            first->loweredNames.lookup("fill<1000>"));
  // Another option is another compile.
  FailureOr<NvrtcOutput> fast =
      compileCudaSourceWithNvrtc(kScaleSource, {"scale", "fill<1000>"},
                                 "sm_90a", {"--use_fast_math"}, error, &cache);
  ASSERT_TRUE(succeeded(fast)) << error;
  EXPECT_EQ(cache.getHits(), 1u);
  // A failed compile is not kept: it fails again, with its log.
  StringRef broken = "extern \"C\" __global__ void broken() { nope; }";
  EXPECT_TRUE(failed(compileCudaSourceWithNvrtc(broken, {"broken"}, "sm_90a",
                                                {}, error, &cache)));
  EXPECT_TRUE(failed(compileCudaSourceWithNvrtc(broken, {"broken"}, "sm_90a",
                                                {}, error, &cache)));
  EXPECT_NE(error.find("nope"), std::string::npos) << error;
  EXPECT_EQ(cache.getHits(), 1u);
}

TEST_F(CudaCompileTest, NvrtcReportsCompileErrorsWithTheLog) {
  std::string reason;
  if (!isNvrtcAvailable(reason))
    GTEST_SKIP() << reason;
  std::string error;
  FailureOr<NvrtcOutput> out = compileCudaSourceWithNvrtc(
      R"cuda(extern "C" __global__ void broken(float *b) {
  b[threadIdx.x] = undeclared_value;
})cuda",
      {"broken"}, "sm_90a", {}, error);
  EXPECT_TRUE(failed(out));
  EXPECT_NE(error.find("NVRTC compilation failed"), std::string::npos) << error;
  // The log names the culprit and the line.
  EXPECT_NE(error.find("undeclared_value"), std::string::npos) << error;
  EXPECT_NE(error.find("candidate.cu(2)"), std::string::npos) << error;
}

TEST_F(CudaCompileTest, ParsesTheCudaSourceAttribute) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @scale(%a: memref<1000xf32>, %b: memref<1000xf32>) attributes {
  stark.cuda = #stark.cuda<source = "extern \"C\" __global__ void k(float*, float*) {}",
                launches = [#stark.launch<kernel = "k", grid = array<i64: 4>,
                             block = array<i64: 256, 1, 1>,
                             shared_bytes = 65536>,
                            #stark.launch<kernel = "k", grid = array<i64: 1, 2, 3>,
                             block = array<i64: 32, 4>>],
                options = ["-use_fast_math"]>} {
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<func::FuncOp>("scale");
  ASSERT_TRUE(func);
  EXPECT_TRUE(hasCudaSource(func));
  std::string error;
  FailureOr<CudaSourceCandidate> source = parseCudaSource(func, error);
  ASSERT_TRUE(succeeded(source)) << error;
  ASSERT_EQ(source->launches.size(), 2u);
  EXPECT_EQ(source->launches[0].grid, (std::array<int64_t, 3>{4, 1, 1}));
  EXPECT_EQ(source->launches[0].sharedBytes, 65536);
  EXPECT_EQ(source->launches[1].block, (std::array<int64_t, 3>{32, 4, 1}));
  EXPECT_EQ(source->launches[1].sharedBytes, 0);
  ASSERT_EQ(source->options.size(), 1u);
  EXPECT_EQ(source->options[0], "-use_fast_math");
}

TEST_F(CudaCompileTest, RejectsMalformedCudaSourceAttributes) {
  // The stark dialect rejects malformed launches when the IR is parsed.
  std::string diagnostics;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  EXPECT_FALSE(parseSourceString<ModuleOp>(R"mlir(
func.func private @no_launches(%a: memref<4xf32>) attributes {
  stark.cuda = #stark.cuda<source = "__global__ void k() {}", launches = []>}
)mlir",
                                           &context));
  EXPECT_NE(diagnostics.find("'launches' must not be empty"), std::string::npos)
      << diagnostics;
  EXPECT_FALSE(parseSourceString<ModuleOp>(R"mlir(
func.func private @zero_block(%a: memref<4xf32>) attributes {
  stark.cuda = #stark.cuda<source = "__global__ void k() {}",
                launches = [#stark.launch<kernel = "k", grid = array<i64: 1>,
                             block = array<i64: 0>>]>}
)mlir",
                                           &context));
  EXPECT_NE(diagnostics.find("'block' must be 1 to 3 positive integers"),
            std::string::npos)
      << diagnostics;

  // An attribute of another kind set without verification is refused too.
  OwningOpRef<ModuleOp> module =
      parse("func.func private @k(%a: memref<4xf32>)");
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<func::FuncOp>("k");
  func->setAttr(kCudaAttrName, DictionaryAttr::get(&context));
  std::string error;
  EXPECT_TRUE(failed(parseCudaSource(func, error)));
  EXPECT_NE(error.find("'stark.cuda' on @k must be a #stark.cuda attribute "
                       "(string-keyed dictionaries are no longer accepted)"),
            std::string::npos)
      << error;
}

//===----------------------------------------------------------------------===//
// Substituted CUDA C++: gpu.binary + gpu.launch_func
//===----------------------------------------------------------------------===//

// What stark-substitute makes of a CUDA C++ winner, in a program that also
// has host linalg: the cuda target lowers it like any GPU-dialect candidate,
// keeps the winner's binary exactly as it is (its chip included), and the
// host code loads it and launches its kernel with the aligned pointers.
TEST_F(CudaCompileTest, SubstitutedCudaWinnerLowersWithItsBinaryKept) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
module attributes {gpu.container_module} {
  func.func @kernel(%x: memref<1000xf32>, %y: memref<1000xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%y : memref<1000xf32>)
    call @stark_kernel_00000000000000cc(%x, %y)
        : (memref<1000xf32>, memref<1000xf32>) -> ()
    return
  }
  gpu.binary @stark_kernel_00000000000000cc_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, bin = "\7FELF winner">]
  func.func private @stark_kernel_00000000000000cc(%x: memref<1000xf32>,
                                                   %y: memref<1000xf32>) {
    %xi = memref.extract_aligned_pointer_as_index %x : memref<1000xf32> -> index
    %xw = arith.index_cast %xi : index to i64
    %xp = llvm.inttoptr %xw : i64 to !llvm.ptr
    %yi = memref.extract_aligned_pointer_as_index %y : memref<1000xf32> -> index
    %yw = arith.index_cast %yi : index to i64
    %yp = llvm.inttoptr %yw : i64 to !llvm.ptr
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %shared = arith.constant 1024 : i32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @stark_kernel_00000000000000cc_bin::@scale
        blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %shared
        args(%xp : !llvm.ptr, %yp : !llvm.ptr)
    gpu.wait [%t1]
    return
  }
}
)mlir");
  ASSERT_TRUE(module);
  auto before =
      module->lookupSymbol<gpu::BinaryOp>("stark_kernel_00000000000000cc_bin");
  ASSERT_TRUE(before);
  ArrayAttr objects = before.getObjectsAttr();

  std::string error;
  ASSERT_TRUE(succeeded(lowerModuleForCuda(*module, CudaArch(), error)))
      << error;
  auto after =
      module->lookupSymbol<gpu::BinaryOp>("stark_kernel_00000000000000cc_bin");
  ASSERT_TRUE(after);
  EXPECT_EQ(after.getObjectsAttr(), objects);
  // The fill became a kernel of its own, built for the device.
  SmallVector<std::string> ptx = collectEmbeddedPtx(*module);
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_NE(ptx.front().find(".target sm_90a"), std::string::npos);
  EXPECT_TRUE(module->getOps<func::FuncOp>().empty());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  ASSERT_TRUE(llvmModule);
  std::string ir;
  llvm::raw_string_ostream os(ir);
  llvmModule->print(os, nullptr);
  EXPECT_NE(ir.find("c\"\\7FELF winner\""), std::string::npos) << ir;
  EXPECT_NE(ir.find("call ptr @mgpuModuleLoad(ptr "
                    "@stark_kernel_00000000000000cc_bin_binary"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("c\"scale\\00\""), std::string::npos) << ir;
  EXPECT_NE(ir.find("i64 4, i64 1, i64 1, i64 256, i64 1, i64 1, i32 1024"),
            std::string::npos)
      << ir;
}

//===----------------------------------------------------------------------===//
// The target without a driver
//===----------------------------------------------------------------------===//

TEST_F(CudaCompileTest, TargetWithoutDriverSaysWhy) {
  std::unique_ptr<Target> target = createCudaTarget(context);
  ASSERT_TRUE(target);
  EXPECT_EQ(target->getName(), "cuda");
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver) {
    dlclose(driver);
    GTEST_SKIP() << "libcuda.so.1 is present here";
  }
  std::string reason = target->getUnavailableReason();
  EXPECT_EQ(reason.rfind("no CUDA device: libcuda.so.1 not found", 0), 0u)
      << reason;
  // Every operation fails with the same reason instead of crashing.
  KernelSignature signature;
  signature.entry = "f";
  signature.args.push_back(ArgSpec{{4}, ElementKind::F32, false});
  std::string error;
  EXPECT_TRUE(failed(target->allocate(signature, error)));
  EXPECT_EQ(error, reason);
  OwningOpRef<ModuleOp> module = parse(kMatmulProblem);
  error.clear();
  EXPECT_TRUE(failed(target->compile(*module, signature, error)));
  EXPECT_EQ(error, reason);
}

} // namespace
