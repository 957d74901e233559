//===- LoweredGuards.h - Rules on candidates lowered to LLVM ----*- C++ -*-===//
//
// A candidate written in MLIR is judged on its lowered form, the LLVM
// dialect the target's own pipeline made of it, so no spelling of the
// input can hide from the rules. Host code is rejected when it has
//  - a mutable global (`llvm.mlir.global` without `constant`, or without
//    an initializer: state that outlives a run, or a symbol from outside);
//    the constant globals the lowering makes of `memref.global constant`
//    (weights, tables) and of string constants are fine;
//  - inline assembly (`llvm.inline_asm`, or module-level assembly): a
//    system call or a symbol the other rules cannot see;
//  - a call, or an address taken, of a function that is neither defined in
//    the module nor one of the runtime symbols the target provides (the
//    C math library, allocation, memcpy/memset/memmove, memrefCopy, and on
//    cuda the mgpu* runtime); an indirect call; an alias or ifunc.
// Device code in `gpu.module`s may keep globals in shared memory
// (workgroup buffers) and constant ones; it is also checked as PTX
// (PtxGuards.h).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_LOWEREDGUARDS_H
#define STARK_TARGET_LOWEREDGUARDS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::stark {

/// True for the C library functions that lowered host code may call on any
/// target: the math library (what math-to-libm and LLVM's code generation
/// call), allocation (malloc, free, aligned_alloc and MLIR's generic
/// `_mlir_memref_to_llvm_*`), memcpy/memset/memmove, and memrefCopy (which
/// the cpu target provides itself).
bool isHostRuntimeSymbol(StringRef name);

/// Fails with `error` (naming the rule, the op and its location) when the
/// lowered `module` breaks a rule. `provided` says which external symbols
/// the target resolves (isHostRuntimeSymbol, plus the target's own).
LogicalResult checkLoweredModule(ModuleOp module,
                                 llvm::function_ref<bool(StringRef)> provided,
                                 std::string &error);

/// The same rules on LLVM IR, where the JIT links it: every function or
/// global it uses but does not define must be `provided`, and it has no
/// inline or module-level assembly. What the ORC JIT would otherwise
/// resolve from the whole process (all of libc) is limited to that list.
LogicalResult checkLinkedSymbols(const llvm::Module &module,
                                 llvm::function_ref<bool(StringRef)> provided,
                                 std::string &error);

} // namespace mlir::stark

#endif // STARK_TARGET_LOWEREDGUARDS_H
