//===- StarkAttrs.cpp - Verifiers of the stark dialect's attributes -------===//
//
// The checks the passes relied on when these were dictionaries read by hand:
// an attribute that verifies can be used without further checks.
//
//===----------------------------------------------------------------------===//

#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/TypedParams.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stark;

LogicalResult CostAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringRef bound, int64_t bytes,
                               StringRef opClass, StringRef dtype,
                               int64_t flops, StringRef profile, int64_t rank,
                               APFloat shareValue, APFloat timeUsValue) {
  double share = shareValue.convertToDouble();
  double timeUs = timeUsValue.convertToDouble();
  if (bound != "compute" && bound != "memory")
    return emitError() << "'bound' must be \"compute\" or \"memory\", got \""
                       << bound << "\"";
  if (bytes < 0 || flops < 0)
    return emitError() << "'bytes' and 'flops' must not be negative";
  if (opClass.empty() || dtype.empty() || profile.empty())
    return emitError() << "'op_class', 'dtype' and 'profile' must not be "
                          "empty";
  if (rank < 1)
    return emitError() << "'rank' must be positive, got " << rank;
  if (!(share >= 0.0 && share <= 1.0))
    return emitError() << "'share' must be within [0, 1], got " << share;
  if (!(timeUs >= 0.0))
    return emitError() << "'time_us' must not be negative, got " << timeUs;
  return success();
}

LogicalResult ProblemAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef entry, int64_t fusedOps,
                                  int64_t numOutputs, StringRef op,
                                  StringRef shapes, StringRef signature) {
  if (entry.empty())
    return emitError() << "'entry' must name the entry function";
  if (numOutputs < 1)
    return emitError() << "'num_outputs' must be positive, got " << numOutputs;
  if (fusedOps < 1)
    return emitError() << "'fused_ops' must be positive, got " << fusedOps;
  return success();
}

LogicalResult WinnerAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 std::optional<APFloat> baselineUs,
                                 int64_t candidate, StringRef chip,
                                 DictionaryAttr params, APFloat speedupValue,
                                 StringRef strategy, StringRef target,
                                 std::optional<APFloat> winnerUs) {
  double speedup = speedupValue.convertToDouble();
  if (candidate < 0)
    return emitError() << "'candidate' must not be negative, got " << candidate;
  if (strategy.empty())
    return emitError() << "'strategy' must not be empty";
  if (!(speedup > 0.0))
    return emitError() << "'speedup' must be positive, got " << speedup;
  if (params)
    for (NamedAttribute param : params)
      if (!isTypedParamValue(param.getValue()))
        return emitError() << "parameter '" << param.getName().getValue()
                           << "' must be an integer, a number, a boolean or "
                              "a string, got "
                           << param.getValue();
  for (const std::optional<APFloat> &t : {baselineUs, winnerUs})
    if (t && !(t->convertToDouble() > 0.0))
      return emitError() << "'baseline_us' and 'winner_us' must be positive, "
                            "got "
                         << t->convertToDouble();
  return success();
}

LogicalResult
TensorMapAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t arg,
                      DenseI64ArrayAttr box, DenseI64ArrayAttr shape) {
  if (arg < 0)
    return emitError() << "'arg' must name an argument, got " << arg;
  if (!box || !shape)
    return emitError() << "'box' and 'shape' are both needed";
  // The copy engine's limits: rank 1 to 5, boxes of 1 to 256 elements.
  if (shape.empty() || shape.size() > 5 || box.size() != shape.size())
    return emitError() << "'shape' must have 1 to 5 extents and 'box' as "
                          "many";
  for (auto [b, s] : llvm::zip(box.asArrayRef(), shape.asArrayRef()))
    if (s <= 0 || b <= 0 || b > 256)
      return emitError() << "'shape' extents must be positive and 'box' "
                            "extents 1 to 256";
  return success();
}

SmallVector<TensorMapAttr> LaunchAttr::getTensorMapList() const {
  if (!getTensorMaps())
    return {};
  return llvm::to_vector(llvm::map_range(
      getTensorMaps(), [](Attribute a) { return cast<TensorMapAttr>(a); }));
}

LogicalResult LaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DenseI64ArrayAttr block,
                                 DenseI64ArrayAttr grid, StringRef kernel,
                                 int64_t sharedBytes, ArrayAttr tensorMaps) {
  if (tensorMaps && !llvm::all_of(tensorMaps, llvm::IsaPred<TensorMapAttr>))
    return emitError() << "'tensor_maps' must hold #stark.tensor_map "
                          "attributes";
  if (kernel.empty())
    return emitError() << "'kernel' must name a kernel";
  for (auto [what, dims] :
       {std::pair<StringRef, DenseI64ArrayAttr>{"grid", grid},
        {"block", block}}) {
    if (!dims)
      return emitError() << "'" << what << "' is missing";
    ArrayRef<int64_t> values = dims.asArrayRef();
    if (values.empty() || values.size() > 3 ||
        llvm::any_of(values, [](int64_t v) { return v <= 0; }))
      return emitError() << "'" << what
                         << "' must be 1 to 3 positive integers "
                            "(array<i64: x, y, z>)";
  }
  if (sharedBytes < 0)
    return emitError() << "'shared_bytes' must not be negative, got "
                       << sharedBytes;
  return success();
}

LogicalResult
CudaKernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringRef family, ArrayAttr launches, ArrayAttr options,
                       DictionaryAttr params, StringRef source) {
  if (source.empty())
    return emitError() << "'source' must not be empty";
  if (launches.empty())
    return emitError() << "'launches' must not be empty";
  for (Attribute launch : launches)
    if (!isa<LaunchAttr>(launch))
      return emitError() << "'launches' must hold #stark.launch attributes";
  if (options && !llvm::all_of(options, llvm::IsaPred<StringAttr>))
    return emitError() << "'options' must be an array of strings";
  return success();
}

SmallVector<LaunchAttr> CudaKernelAttr::getLaunchList() const {
  return llvm::to_vector(llvm::map_range(
      getLaunches(), [](Attribute a) { return cast<LaunchAttr>(a); }));
}

SmallVector<std::string> CudaKernelAttr::getOptionList() const {
  SmallVector<std::string> options;
  if (getOptions())
    for (Attribute a : getOptions())
      options.push_back(cast<StringAttr>(a).getValue().str());
  return options;
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef family, DictionaryAttr params,
                                   StringRef script) {
  if (family.empty())
    return emitError() << "'family' must not be empty";
  if (script.empty())
    return emitError() << "'script' must not be empty";
  return success();
}

FailureOr<ProblemAttr> mlir::stark::getProblemAttr(ModuleOp module,
                                                   std::string &error) {
  Attribute attr = module->getAttr(kProblemAttrName);
  if (!attr) {
    error = "module has no 'stark.problem' attribute (expected "
            "#stark.problem<entry = \"...\", num_outputs = N, ...>); is it a "
            "kernel problem (see --stark-outline)?";
    return failure();
  }
  auto problem = dyn_cast<ProblemAttr>(attr);
  if (!problem) {
    // Only reached when the stark dialect was not loaded while parsing
    // (its verifier rejects this otherwise).
    error = "'stark.problem' must be a #stark.problem attribute";
    if (isa<DictionaryAttr>(attr))
      error += " (string-keyed dictionaries are no longer accepted)";
    return failure();
  }
  return problem;
}
