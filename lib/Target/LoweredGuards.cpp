//===- LoweredGuards.cpp - Rules on candidates lowered to LLVM ------------===//

#include "stark/Target/LoweredGuards.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stark;

bool mlir::stark::isHostRuntimeSymbol(StringRef name) {
  // Pure functions of the C math library, in double and float (and the
  // long double of a few that LLVM's code generation may call), as
  // math-to-libm and the lowering of LLVM's math intrinsics call them.
  // lgamma is not among them: it writes the global `signgam`.
  static const llvm::StringSet<> kMath = {
      "acos",   "acosh",     "asin",    "asinh",    "atan",      "atan2",
      "atanh",  "cbrt",      "ceil",    "copysign", "cos",       "cosh",
      "erf",    "erfc",      "exp",     "exp10",    "exp2",      "expm1",
      "fabs",   "fdim",      "floor",   "fma",      "fmax",      "fmin",
      "fmod",   "frexp",     "hypot",   "ldexp",    "log",       "log10",
      "log1p",  "log2",      "logb",    "modf",     "nearbyint", "nextafter",
      "pow",    "remainder", "rint",    "round",    "roundeven", "sin",
      "sincos", "sinh",      "sqrt",    "tan",      "tanh",      "tgamma",
      "trunc",  "lround",    "llround", "lrint",    "llrint"};
  if (kMath.contains(name))
    return true;
  if ((name.ends_with("f") || name.ends_with("l")) &&
      kMath.contains(name.drop_back()))
    return true;
  static const llvm::StringSet<> kRuntime = {
      // Allocation, as memref-to-llvm calls it.
      "malloc", "free", "aligned_alloc", "_mlir_memref_to_llvm_alloc",
      "_mlir_memref_to_llvm_aligned_alloc", "_mlir_memref_to_llvm_free",
      // Memory intrinsics that code generation turns into calls.
      "memcpy", "memmove", "memset",
      // Strided memref.copy; provided by the targets themselves.
      "memrefCopy"};
  return kRuntime.contains(name);
}

namespace {
/// The first rule an op breaks, as a sentence; empty when none.
class LoweredChecker {
public:
  LoweredChecker(ModuleOp module, llvm::function_ref<bool(StringRef)> provided)
      : module(module), provided(provided) {}

  LogicalResult run(std::string &error);

private:
  /// Fails with `why` about `op`.
  LogicalResult fail(Operation *op, const llvm::Twine &why,
                     std::string &error) {
    std::string where;
    llvm::raw_string_ostream(where) << op->getLoc();
    error = ("the lowered candidate breaks a guard: " + why + " ('" +
             op->getName().getStringRef() + "' at " + where + ")")
                .str();
    return failure();
  }
  bool isDefined(StringRef name);

  ModuleOp module;
  llvm::function_ref<bool(StringRef)> provided;
};
} // namespace

bool LoweredChecker::isDefined(StringRef name) {
  Operation *symbol = SymbolTable::lookupSymbolIn(module, name);
  if (auto fn = dyn_cast_or_null<LLVM::LLVMFuncOp>(symbol))
    return !fn.isExternal();
  if (auto fn = dyn_cast_or_null<func::FuncOp>(symbol))
    return !fn.isExternal();
  return isa_and_nonnull<LLVM::GlobalOp>(symbol);
}

LogicalResult LoweredChecker::run(std::string &error) {
  if (module->hasAttr(LLVM::LLVMDialect::getModuleLevelAsmAttrName()))
    return fail(module, "module-level assembly", error);
  LogicalResult result = success();
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    bool device = op->getName().getStringRef() == "gpu.module";
    if (device) {
      // Device code: globals only in shared memory (workgroup buffers) or
      // constant; the rest is checked on its PTX.
      op->walk([&](LLVM::GlobalOp global) {
        if (succeeded(result) && !global.getConstant() &&
            global.getAddrSpace() != 3)
          result =
              fail(global,
                   "a mutable global in device memory ('" +
                       global.getSymName() + "'): state that outlives a run",
                   error);
      });
      return succeeded(result) ? WalkResult::skip() : WalkResult::interrupt();
    }
    StringRef name = op->getName().getStringRef();
    if (name == "llvm.mlir.alias" || name == "llvm.mlir.ifunc") {
      result =
          fail(op, "an alias or ifunc, a symbol resolved elsewhere", error);
    } else if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
      bool initialised =
          global.getValue().has_value() || global.getInitializerBlock();
      if (!initialised && !provided(global.getSymName()))
        result = fail(op,
                      "the global '" + global.getSymName() +
                          "' is declared, not defined: a symbol from "
                          "outside the candidate",
                      error);
      else if (initialised && !global.getConstant())
        result = fail(op,
                      "the mutable global '" + global.getSymName() +
                          "': state that outlives a run",
                      error);
    } else if (isa<LLVM::InlineAsmOp>(op)) {
      result = fail(op, "inline assembly in host code", error);
    } else if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
      // llvm.func and func.func alike.
      if (fn.isExternal() && !provided(fn.getName()))
        result = fail(op,
                      "the function '" + fn.getName() +
                          "' is not defined in the candidate and is not "
                          "one of the runtime functions the target provides",
                      error);
    } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        result = fail(op, "an indirect call", error);
      else if (!isDefined(*callee) && !provided(*callee))
        result = fail(op,
                      "a call of '" + *callee +
                          "', which is neither defined in the candidate "
                          "nor provided by the target",
                      error);
    } else if (auto invoke = dyn_cast<LLVM::InvokeOp>(op)) {
      std::optional<StringRef> callee = invoke.getCallee();
      if (!callee || (!isDefined(*callee) && !provided(*callee)))
        result = fail(op, "an invoke of an unknown function", error);
    } else if (auto addr = dyn_cast<LLVM::AddressOfOp>(op)) {
      StringRef target = addr.getGlobalName();
      if (!isDefined(target) && !provided(target))
        result = fail(op,
                      "the address of '" + target +
                          "', which is neither defined in the candidate "
                          "nor provided by the target",
                      error);
    }
    return succeeded(result) ? WalkResult::advance() : WalkResult::interrupt();
  });
  return result;
}

LogicalResult
mlir::stark::checkLoweredModule(ModuleOp module,
                                llvm::function_ref<bool(StringRef)> provided,
                                std::string &error) {
  return LoweredChecker(module, provided).run(error);
}

LogicalResult
mlir::stark::checkLinkedSymbols(const llvm::Module &module,
                                llvm::function_ref<bool(StringRef)> provided,
                                std::string &error) {
  if (!module.getModuleInlineAsm().empty()) {
    error = "the JIT refuses module-level assembly";
    return failure();
  }
  for (const llvm::Function &fn : module.functions()) {
    if (fn.isDeclaration()) {
      // The JIT resolves only what relocations name: an unused declaration
      // is never looked up.
      if (fn.isIntrinsic() || fn.use_empty() || provided(fn.getName()))
        continue;
      error = llvm::formatv("the JIT does not resolve '{0}': candidates may "
                            "call only the runtime functions the target "
                            "provides (the C math library, allocation, "
                            "memcpy/memset/memmove, memrefCopy, and the "
                            "mgpu* runtime on cuda)",
                            fn.getName())
                  .str();
      return failure();
    }
    for (const llvm::Instruction &inst : llvm::instructions(fn))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
          call && call->isInlineAsm()) {
        error = llvm::formatv("the JIT refuses inline assembly (in '{0}')",
                              fn.getName())
                    .str();
        return failure();
      }
  }
  for (const llvm::GlobalVariable &global : module.globals())
    if (global.isDeclaration() && !global.use_empty() &&
        !provided(global.getName())) {
      error = llvm::formatv("the JIT does not resolve the global '{0}'",
                            global.getName())
                  .str();
      return failure();
    }
  for (const llvm::GlobalAlias &alias : module.aliases()) {
    error =
        llvm::formatv("the JIT refuses the alias '{0}'", alias.getName()).str();
    return failure();
  }
  for (const llvm::GlobalIFunc &ifunc : module.ifuncs()) {
    error =
        llvm::formatv("the JIT refuses the ifunc '{0}'", ifunc.getName()).str();
    return failure();
  }
  return success();
}
