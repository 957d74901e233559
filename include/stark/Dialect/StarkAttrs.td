//===- StarkAttrs.td - Attributes of the stark dialect ------*- tablegen -*-===//

#ifndef STARK_DIALECT_STARKATTRS_TD
#define STARK_DIALECT_STARKATTRS_TD

include "stark/Dialect/StarkDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Stark_Attr<string name, string attrMnemonic>
    : AttrDef<Stark_Dialect, name> {
  let mnemonic = attrMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// A double printed as a plain float literal (`0.5`, `1.000000e+00`), held
// as an APFloat (doubles have no hash of their own).
class Stark_F64Parameter<string desc> : APFloatParameter<desc> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::APFloat> {
    double value;
    if ($_parser.parseFloat(value))
      return ::mlir::failure();
    return ::llvm::APFloat(value);
  }() }];
  let printer = [{ $_printer << $_self }];
}

// An optional double: left out of the printed form when absent.
class Stark_OptionalF64Parameter<string desc>
    : OptionalParameter<"::std::optional<::llvm::APFloat>", desc> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::std::optional<::llvm::APFloat>> {
    double value;
    if ($_parser.parseFloat(value))
      return ::mlir::failure();
    return ::std::optional<::llvm::APFloat>(::llvm::APFloat(value));
  }() }];
  let printer = [{ $_printer << *$_self }];
}

// Launch extents, spelled `array<i64: x, y, z>`.
class Stark_I64ArrayParameter<string desc>
    : AttrParameter<"::mlir::DenseI64ArrayAttr", desc> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::mlir::DenseI64ArrayAttr> {
    ::llvm::SMLoc loc = $_parser.getCurrentLocation();
    ::mlir::Attribute attr;
    if ($_parser.parseAttribute(attr))
      return ::mlir::failure();
    auto array = ::llvm::dyn_cast<::mlir::DenseI64ArrayAttr>(attr);
    if (!array)
      return $_parser.emitError(loc, "expected array<i64: ...>");
    return array;
  }() }];
  let printer = [{ $_printer.printAttribute($_self) }];
}

def Stark_CostAttr : Stark_Attr<"Cost", "cost"> {
  let summary = "Estimated cost of a hot op (written by stark-hot-ops)";
  let description = [{
    ```mlir
    linalg.matmul {stark.cost = #stark.cost<bound = "compute",
        bytes = 16777216, op_class = "contraction", dtype = "f32",
        flops = 2147483648, profile = "h200", rank = 1, share = 1.0,
        time_us = 3.2>} ...
    ```
    `bound` is "compute" or "memory"; `rank` counts from 1 (the most
    expensive op); `share` is the op's part of the module's estimated time.
  }];
  let parameters = (ins
    StringRefParameter<"compute or memory">:$bound,
    "int64_t":$bytes,
    StringRefParameter<"op class (contraction, reduction, ...)">:$op_class,
    StringRefParameter<"compute type">:$dtype,
    "int64_t":$flops,
    StringRefParameter<"hardware profile of the estimate">:$profile,
    "int64_t":$rank,
    Stark_F64Parameter<"share of the module's estimated time">:$share,
    Stark_F64Parameter<"estimated time in microseconds">:$time_us
  );
}

def Stark_ProblemAttr : Stark_Attr<"Problem", "problem"> {
  let summary = "What a kernel problem module is (written by stark-outline)";
  let description = [{
    On a problem module: its entry function, how many of the entry's
    trailing arguments are outputs, the op it was outlined from, operand
    shapes, its signature (see computeProblemSignature) and, for a fused
    chain, how many linalg ops it holds.

    ```mlir
    module @stark_problem_0 attributes {stark.problem = #stark.problem<
        entry = "kernel", num_outputs = 1, op = "linalg.matmul",
        shapes = "64x32xf32,32x16xf32->64x16xf32", signature = "...">}
    ```
    Ops of the program point at their problem with a symbol instead:
    `stark.problem = @stark_problem_0`.
  }];
  let parameters = (ins
    StringRefParameter<"entry function">:$entry,
    DefaultValuedParameter<"int64_t", "1", "linalg ops in the problem">:$fused_ops,
    "int64_t":$num_outputs,
    StringRefParameter<"op the problem was outlined from", "\"\"">:$op,
    StringRefParameter<"operand shapes and element types", "\"\"">:$shapes,
    StringRefParameter<"hex digest of the canonical module", "\"\"">:$signature
  );
}

def Stark_WinnerAttr : Stark_Attr<"Winner", "winner"> {
  let summary = "The verified winner of a problem's search";
  let description = [{
    On a problem module (written by stark-search, read by stark-substitute),
    with the search's timings, target and the winner's parameters:

    ```mlir
    stark.winner = #stark.winner<baseline_us = 5.0, candidate = 7,
        params = {bm = 64 : i64, vec = true}, speedup = 2.5,
        strategy = "gemm", target = "cuda", winner_us = 2.0>
    ```
    `params` keep the kind of each value: integers, booleans, other numbers
    (f64) or strings. `chip` names the chip a CUDA C++ winner was built for. The call that
    replaces the op carries its provenance as a builtin dictionary under
    the same name, which stock tools can read.
  }];
  let parameters = (ins
    Stark_OptionalF64Parameter<"baseline time in microseconds">:$baseline_us,
    "int64_t":$candidate,
    StringRefParameter<"chip of a CUDA C++ winner", "\"\"">:$chip,
    OptionalParameter<"::mlir::DictionaryAttr", "the winner's parameters">:$params,
    Stark_F64Parameter<"speedup over the baseline">:$speedup,
    StringRefParameter<"strategy that produced the winner">:$strategy,
    StringRefParameter<"target the search ran on", "\"\"">:$target,
    Stark_OptionalF64Parameter<"winner time in microseconds">:$winner_us
  );
}

def Stark_TensorMapAttr : Stark_Attr<"TensorMap", "tensor_map"> {
  let summary = "A tensor map (TMA descriptor) of one entry argument";
  let description = [{
    Entry argument `arg`, a memref with the identity layout, seen as the
    row-major tensor `shape` (the same elements in the same order, so the
    product of `shape` is the argument's element count), read by the bulk
    tensor copy engine in boxes of `box` (one extent per dimension of
    `shape`, outermost first) with the 128-byte swizzle; elements past the
    edges read as zero. The kernel receives the address of the encoded
    128-byte map in device memory.

    ```mlir
    #stark.tensor_map<arg = 0, box = array<i64: 1, 128, 64>,
                      shape = array<i64: 1, 512, 2048>>
    ```
  }];
  let parameters = (ins
    "int64_t":$arg,
    Stark_I64ArrayParameter<"box extents, outermost first">:$box,
    Stark_I64ArrayParameter<"the argument's shape as a tensor">:$shape
  );
}

def Stark_LaunchAttr : Stark_Attr<"Launch", "launch"> {
  let summary = "One kernel launch of a CUDA C++ candidate";
  let description = [{
    The kernel receives the data pointers of the entry's memref arguments,
    in order, then the device addresses of its `tensor_maps`, in order.
    `grid` and `block` hold one to three positive extents.

    ```mlir
    #stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 4, 1, 1>,
                  kernel = "k", shared_bytes = 1024>
    ```
  }];
  let parameters = (ins
    Stark_I64ArrayParameter<"threads per block">:$block,
    Stark_I64ArrayParameter<"blocks">:$grid,
    StringRefParameter<"kernel name (a name expression)">:$kernel,
    DefaultValuedParameter<"int64_t", "0", "dynamic shared memory">:$shared_bytes,
    OptionalParameter<"::mlir::ArrayAttr", "#stark.tensor_map of arguments">:$tensor_maps
  );
  let extraClassDeclaration = [{
    /// The tensor maps, typed (empty when there are none).
    ::llvm::SmallVector<TensorMapAttr> getTensorMapList() const;
  }];
}

def Stark_CudaKernelAttr : Stark_Attr<"CudaKernel", "cuda"> {
  let summary = "A CUDA C++ candidate: its source and launches";
  let description = [{
    On the body-less entry function of a CUDA C++ candidate (written by the
    CUDA template families, read by the CUDA target and stark-substitute).
    `options` are extra NVRTC options; `family` and `params` say which
    template produced it.

    ```mlir
    func.func private @kernel(...) attributes {stark.cuda = #stark.cuda<
        family = "elementwise",
        launches = [#stark.launch<block = array<i64: 256>,
                                  grid = array<i64: 4>, kernel = "k">],
        params = {block = "256"},
        source = "extern \22C\22 __global__ void k(...) {...}">}
    ```
  }];
  let parameters = (ins
    StringRefParameter<"template family", "\"\"">:$family,
    "::mlir::ArrayAttr":$launches,
    OptionalParameter<"::mlir::ArrayAttr", "extra NVRTC options">:$options,
    OptionalParameter<"::mlir::DictionaryAttr", "template parameters">:$params,
    StringRefParameter<"CUDA C++ source">:$source
  );
  let extraClassDeclaration = [{
    /// The launches, in order (the verifier checks their kind).
    ::llvm::SmallVector<LaunchAttr> getLaunchList() const;
    /// The NVRTC options as strings.
    ::llvm::SmallVector<::std::string> getOptionList() const;
  }];
}

def Stark_ScheduleAttr : Stark_Attr<"Schedule", "schedule"> {
  let summary = "The transform schedule a candidate was built with";
  let description = [{
    On the functions of a transform-schedule candidate, for reports and
    tuning records:

    ```mlir
    stark.schedule = #stark.schedule<family = "td-matmul",
        params = {bm = 64 : i64}, script = "transform.named_sequence ...">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"schedule family">:$family,
    "::mlir::DictionaryAttr":$params,
    StringRefParameter<"the transform script">:$script
  );
}

#endif // STARK_DIALECT_STARKATTRS_TD
