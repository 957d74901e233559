//===- LoweredGuardsTest.cpp - Rules on candidates lowered to LLVM --------===//

#include "stark/Target/LoweredGuards.h"
#include "stark/Target/CpuTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

class LoweredGuardsTest : public ::testing::Test {
protected:
  LoweredGuardsTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        LLVM::LLVMDialect, linalg::LinalgDialect,
                        math::MathDialect, memref::MemRefDialect>();
  }

  /// Parses `ir`, lowers it with the cpu target's pipeline and returns the
  /// guards' error ("" when it passes).
  std::string check(StringRef ir) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
    if (!module)
      return "does not parse";
    std::string error;
    if (failed(lowerModuleForCpu(*module, "kernel", error)))
      return "does not lower: " + error;
    if (failed(checkLoweredModule(*module, isHostRuntimeSymbol, error)))
      return error;
    return "";
  }

  MLIRContext context;
};

TEST_F(LoweredGuardsTest, RuntimeSymbols) {
  for (StringRef name : {"expf", "exp", "tanhf", "erff", "powf", "fmaf",
                         "sqrtl", "malloc", "free", "aligned_alloc", "memcpy",
                         "memset", "memrefCopy", "_mlir_memref_to_llvm_alloc"})
    EXPECT_TRUE(isHostRuntimeSymbol(name)) << name.str();
  for (StringRef name :
       {"fopen", "write", "system", "printf", "getenv", "dlsym", "lgammaf",
        "lgamma", "mmap", "f", "l", "expff", "mgpuLaunchKernel"})
    EXPECT_FALSE(isHostRuntimeSymbol(name)) << name.str();
}

TEST_F(LoweredGuardsTest, TheLoweringItselfPasses) {
  // Math through libm, a constant global, allocation and a strided copy.
  EXPECT_EQ(check(R"(
    memref.global "private" constant @bias : memref<4xf32> = dense<1.0>
    func.func @kernel(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
      %b = memref.get_global @bias : memref<4xf32>
      %t = memref.alloc() : memref<4x4xf32>
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
          ins(%x, %b : memref<4x4xf32>, memref<4xf32>) outs(%t : memref<4x4xf32>) {
      ^bb0(%v: f32, %c: f32, %o: f32):
        %e = math.tanh %v : f32
        %f = math.erf %e : f32
        %s = arith.addf %f, %c : f32
        linalg.yield %s : f32
      }
      %col = memref.subview %t[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4]>>
      %dst = memref.subview %y[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4]>>
      memref.copy %col, %dst : memref<4xf32, strided<[4]>> to memref<4xf32, strided<[4]>>
      memref.dealloc %t : memref<4x4xf32>
      return
    })"),
            "");
}

TEST_F(LoweredGuardsTest, CallsOutsideTheRuntime) {
  std::string error = check(R"(
    func.func private @fopen(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    func.func @kernel(%p: !llvm.ptr) {
      %f = func.call @fopen(%p, %p) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
      return
    })");
  EXPECT_NE(error.find("the function 'fopen' is not defined in the "
                       "candidate and is not one of the runtime functions"),
            std::string::npos)
      << error;
  // Only the address taken, never called: still a symbol from outside.
  error = check(R"(
    llvm.func @system(!llvm.ptr) -> i32
    func.func @kernel(%out: !llvm.ptr) {
      %f = llvm.mlir.addressof @system : !llvm.ptr
      llvm.store %f, %out : !llvm.ptr, !llvm.ptr
      return
    })");
  EXPECT_NE(error.find("'system'"), std::string::npos) << error;
}

TEST_F(LoweredGuardsTest, IndirectCalls) {
  std::string error = check(R"(
    func.func @kernel(%fp: !llvm.ptr) {
      llvm.call %fp() : !llvm.ptr, () -> ()
      return
    })");
  EXPECT_NE(error.find("an indirect call"), std::string::npos) << error;
}

TEST_F(LoweredGuardsTest, MutableGlobals) {
  std::string error = check(R"(
    memref.global "private" @calls : memref<1xi32> = dense<0>
    func.func @kernel(%x: memref<1xi32>) {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @calls : memref<1xi32>
      %v = memref.load %g[%c0] : memref<1xi32>
      memref.store %v, %x[%c0] : memref<1xi32>
      return
    })");
  EXPECT_NE(error.find("the mutable global 'calls': state that outlives a "
                       "run"),
            std::string::npos)
      << error;
  error = check(R"(
    llvm.mlir.global external @environ() : !llvm.ptr
    func.func @kernel(%out: !llvm.ptr) {
      %e = llvm.mlir.addressof @environ : !llvm.ptr
      llvm.store %e, %out : !llvm.ptr, !llvm.ptr
      return
    })");
  EXPECT_NE(error.find("the global 'environ' is declared, not defined"),
            std::string::npos)
      << error;
}

TEST_F(LoweredGuardsTest, Assembly) {
  std::string error = check(R"(
    func.func @kernel() {
      %nr = llvm.mlir.constant(39 : i64) : i64
      %0 = llvm.inline_asm has_side_effects "syscall", "={rax},{rax},~{rcx},~{r11},~{memory}" %nr : (i64) -> i64
      return
    })");
  EXPECT_NE(error.find("inline assembly in host code"), std::string::npos)
      << error;
  error = check(R"(
    module attributes {llvm.module_asm = [".globl x"]} {
      func.func @kernel() {
        return
      }
    })");
  EXPECT_NE(error.find("module-level assembly"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// What the JIT links
//===----------------------------------------------------------------------===//

/// A module whose `kernel` calls the declared `callee` (no arguments).
std::unique_ptr<llvm::Module> callingModule(llvm::LLVMContext &ctx,
                                            StringRef callee) {
  auto module = std::make_unique<llvm::Module>("m", ctx);
  auto *voidFn = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false);
  llvm::Function *decl = llvm::Function::Create(
      voidFn, llvm::Function::ExternalLinkage, callee, *module);
  llvm::Function *kernel = llvm::Function::Create(
      voidFn, llvm::Function::ExternalLinkage, "kernel", *module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", kernel));
  b.CreateCall(decl);
  b.CreateRetVoid();
  return module;
}

TEST(LinkedSymbolsTest, OnlyTheRuntimeIsResolved) {
  llvm::LLVMContext ctx;
  std::string error;
  for (StringRef ok : {"expf", "malloc", "memrefCopy"})
    EXPECT_TRUE(succeeded(checkLinkedSymbols(*callingModule(ctx, ok),
                                             isHostRuntimeSymbol, error)))
        << ok.str() << ": " << error;
  EXPECT_TRUE(failed(checkLinkedSymbols(*callingModule(ctx, "fopen"),
                                        isHostRuntimeSymbol, error)));
  EXPECT_NE(error.find("the JIT does not resolve 'fopen'"), std::string::npos)
      << error;
  // A target adds its own runtime to the list.
  auto withMgpu = [](StringRef name) {
    return name == "mgpuStreamCreate" || isHostRuntimeSymbol(name);
  };
  EXPECT_TRUE(succeeded(checkLinkedSymbols(
      *callingModule(ctx, "mgpuStreamCreate"), withMgpu, error)));
  EXPECT_TRUE(failed(checkLinkedSymbols(*callingModule(ctx, "mgpuStreamCreate"),
                                        isHostRuntimeSymbol, error)));
}

TEST(LinkedSymbolsTest, GlobalsAndAssembly) {
  llvm::LLVMContext ctx;
  std::string error;
  {
    std::unique_ptr<llvm::Module> m = callingModule(ctx, "expf");
    auto *out = new llvm::GlobalVariable(
        *m, llvm::PointerType::get(ctx, 0), false,
        llvm::GlobalValue::ExternalLinkage, nullptr, "stdout");
    // Declared only: nothing for the JIT to resolve.
    EXPECT_TRUE(succeeded(checkLinkedSymbols(*m, isHostRuntimeSymbol, error)))
        << error;
    llvm::Function *kernel = m->getFunction("kernel");
    llvm::IRBuilder<> b(&kernel->getEntryBlock().front());
    b.CreateLoad(llvm::PointerType::get(ctx, 0), out);
    EXPECT_TRUE(failed(checkLinkedSymbols(*m, isHostRuntimeSymbol, error)));
    EXPECT_NE(error.find("the global 'stdout'"), std::string::npos) << error;
  }
  {
    std::unique_ptr<llvm::Module> m = callingModule(ctx, "expf");
    m->setModuleInlineAsm("call fopen@PLT");
    EXPECT_TRUE(failed(checkLinkedSymbols(*m, isHostRuntimeSymbol, error)));
    EXPECT_NE(error.find("module-level assembly"), std::string::npos) << error;
  }
  {
    std::unique_ptr<llvm::Module> m = callingModule(ctx, "expf");
    llvm::Function *kernel = m->getFunction("kernel");
    llvm::IRBuilder<> b(&kernel->getEntryBlock().front());
    auto *asmType = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false);
    b.CreateCall(asmType, llvm::InlineAsm::get(asmType, "syscall", "",
                                               /*hasSideEffects=*/true));
    EXPECT_TRUE(failed(checkLinkedSymbols(*m, isHostRuntimeSymbol, error)));
    EXPECT_NE(error.find("inline assembly"), std::string::npos) << error;
  }
}

} // namespace
