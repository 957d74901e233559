//===- Target.cpp - Kernel signatures, host buffers, target registry ------===//

#include "stark/Target/Target.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Target/CpuTarget.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaTarget.h"
#endif

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

int64_t ArgSpec::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t ArgSpec::sizeInBytes() const {
  return numElements() * getElementKindBytes(kind);
}

LogicalResult mlir::stark::checkHostBuffers(ArrayRef<ArgSpec> specs,
                                            ArrayRef<HostBuffer> host,
                                            std::string &error) {
  if (host.size() != specs.size()) {
    error = llvm::formatv("{0} host buffers for {1} arguments", host.size(),
                          specs.size())
                .str();
    return failure();
  }
  for (auto [i, buffer] : llvm::enumerate(host)) {
    if (int64_t(buffer.bytes.size()) != specs[i].sizeInBytes()) {
      error = llvm::formatv("argument #{0} has {1} bytes, expected {2}", i,
                            buffer.bytes.size(), specs[i].sizeInBytes())
                  .str();
      return failure();
    }
  }
  return success();
}

FailureOr<KernelSignature> mlir::stark::getKernelSignature(ModuleOp module,
                                                           StringRef entry,
                                                           unsigned numOutputs,
                                                           std::string &error) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    error = llvm::formatv("no function named '{0}'", entry).str();
    return failure();
  }
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() != 0) {
    error = llvm::formatv("'{0}' must return nothing (outputs are memref "
                          "arguments)",
                          entry)
                .str();
    return failure();
  }
  if (numOutputs > type.getNumInputs()) {
    error = llvm::formatv("'{0}' has {1} arguments, fewer than its {2} "
                          "outputs",
                          entry, type.getNumInputs(), numOutputs)
                .str();
    return failure();
  }
  KernelSignature sig;
  sig.entry = entry.str();
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    auto memref = dyn_cast<MemRefType>(argType);
    if (!memref || !memref.hasStaticShape() ||
        !memref.getLayout().isIdentity()) {
      error = llvm::formatv("argument #{0} of '{1}' must be a statically "
                            "shaped memref with the identity layout",
                            i, entry)
                  .str();
      return failure();
    }
    FailureOr<ElementKind> kind = getElementKind(memref.getElementType());
    // The evaluator does not generate or compare i16 data.
    if (failed(kind) || *kind == ElementKind::I16) {
      error = llvm::formatv("argument #{0} of '{1}' has an unsupported "
                            "element type",
                            i, entry)
                  .str();
      return failure();
    }
    ArgSpec spec;
    spec.shape.assign(memref.getShape().begin(), memref.getShape().end());
    spec.kind = *kind;
    spec.isOutput = i >= type.getNumInputs() - numOutputs;
    sig.args.push_back(spec);
  }
  return sig;
}

HostBuffer::HostBuffer(const ArgSpec &spec)
    : spec(spec), bytes(spec.sizeInBytes()) {}

HostBuffer mlir::stark::makeInputPlaceholder(const ArgSpec &spec) {
  ArgSpec empty = spec;
  empty.shape.assign(1, 0);
  return HostBuffer(empty);
}

LogicalResult mlir::stark::downloadOutputs(ArgBuffers &args,
                                           ArrayRef<HostBuffer> like,
                                           std::vector<HostBuffer> &out,
                                           std::string &error) {
  out.clear();
  for (auto [i, b] : llvm::enumerate(like)) {
    if (!b.spec.isOutput) {
      out.push_back(makeInputPlaceholder(b.spec));
      continue;
    }
    out.emplace_back(b.spec);
    if (failed(args.downloadArg(unsigned(i), out.back(), error)))
      return failure();
  }
  return success();
}

template <typename T>
static T loadAs(const std::vector<uint8_t> &bytes, int64_t index) {
  T v;
  std::memcpy(&v, bytes.data() + index * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
static void storeAs(std::vector<uint8_t> &bytes, int64_t index, T v) {
  std::memcpy(bytes.data() + index * sizeof(T), &v, sizeof(T));
}

// Widening is exact, so it needs no rounding: the bits move into a float.
// The judge reads every element of every output this way, several times per
// trial, so it must not go through APFloat.
static double bf16BitsToDouble(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof(f));
  return f;
}
static double f16BitsToDouble(uint16_t bits) {
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const unsigned exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  if (exponent == 0) // zero and the subnormals: mantissa * 2^-24
    return sign * std::ldexp(double(mantissa), -24);
  return sign * std::ldexp(double(mantissa | 0x400), int(exponent) - 25);
}

namespace {
/// A 16-bit float format: significand bits (with the implicit one), the
/// exponent of the smallest normal and of the largest finite value, and
/// where the exponent field starts.
struct HalfFormat {
  int precision, minExponent, maxExponent, bias;
};
constexpr HalfFormat kF16{11, -14, 15, 15};
constexpr HalfFormat kBF16{8, -126, 127, 127};
} // namespace

// Narrowing rounds to nearest, ties to even, straight from the double (no
// detour through float, which would round twice), as APFloat does: the
// magnitude is scaled so that the format's last significand bit is the
// units digit, rounded by nearbyint (the default rounding mode is to
// nearest even), and the result's bits are assembled.
static uint16_t doubleToHalfBits(double v, const HalfFormat &f) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const int fieldShift = f.precision - 1;
  const uint16_t infBits = uint16_t((2 * f.bias + 1) << fieldShift);
  if (std::isnan(v))
    return sign | infBits | uint16_t(1 << (fieldShift - 1));
  double a = std::fabs(v);
  if (std::isinf(a))
    return sign | infBits;
  if (a == 0)
    return sign;
  int e; // a = m * 2^e with m in [0.5, 1)
  std::frexp(a, &e);
  // The exponent of the leading bit, at least the smallest normal's: below
  // it the value is a subnormal with fewer significant bits.
  int lead = std::max(e - 1, f.minExponent);
  double units = std::nearbyint(std::ldexp(a, fieldShift - lead));
  if (units >= std::ldexp(1.0, f.precision)) { // rounded up to 2^precision
    units /= 2;
    ++lead;
  }
  if (lead > f.maxExponent)
    return sign | infBits;
  auto significand = uint32_t(units);
  if (significand < (1u << fieldShift)) // subnormal (or rounded to zero)
    return sign | uint16_t(significand);
  return sign | uint16_t((lead + f.bias) << fieldShift) |
         uint16_t(significand & ((1u << fieldShift) - 1));
}

double HostBuffer::getAsDouble(int64_t i) const {
  switch (spec.kind) {
  case ElementKind::F64:
    return loadAs<double>(bytes, i);
  case ElementKind::F32:
    return loadAs<float>(bytes, i);
  case ElementKind::F16:
    return f16BitsToDouble(loadAs<uint16_t>(bytes, i));
  case ElementKind::BF16:
    return bf16BitsToDouble(loadAs<uint16_t>(bytes, i));
  case ElementKind::I64:
    return double(loadAs<int64_t>(bytes, i));
  case ElementKind::I32:
    return loadAs<int32_t>(bytes, i);
  case ElementKind::I8:
    return loadAs<int8_t>(bytes, i);
  case ElementKind::I1:
    return loadAs<uint8_t>(bytes, i) & 1;
  }
  return 0;
}

void HostBuffer::setFromDouble(int64_t i, double v) {
  switch (spec.kind) {
  case ElementKind::F64:
    return storeAs<double>(bytes, i, v);
  case ElementKind::F32:
    return storeAs<float>(bytes, i, float(v));
  case ElementKind::F16:
    return storeAs<uint16_t>(bytes, i, doubleToHalfBits(v, kF16));
  case ElementKind::BF16:
    return storeAs<uint16_t>(bytes, i, doubleToHalfBits(v, kBF16));
  case ElementKind::I64:
    return storeAs<int64_t>(bytes, i, int64_t(v));
  case ElementKind::I32:
    return storeAs<int32_t>(bytes, i, int32_t(v));
  case ElementKind::I8:
    return storeAs<int8_t>(bytes, i, int8_t(v));
  case ElementKind::I1:
    return storeAs<uint8_t>(bytes, i, v != 0 ? 1 : 0);
  }
}

void mlir::stark::fillGuardPattern(MutableArrayRef<uint8_t> guard,
                                   unsigned argIndex, bool after) {
  // splitmix64 over (argument, side): cheap, and no two guards alike.
  uint64_t state = 0x5bd1e995u + 2 * uint64_t(argIndex) + (after ? 1 : 0);
  for (size_t i = 0; i < guard.size(); i += 8) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (size_t b = 0; b < 8 && i + b < guard.size(); ++b)
      guard[i + b] = uint8_t(z >> (8 * b));
  }
}

std::string mlir::stark::describeGuardDamage(ArrayRef<uint8_t> before,
                                             ArrayRef<uint8_t> after,
                                             unsigned argIndex) {
  std::string text;
  for (bool isAfter : {false, true}) {
    ArrayRef<uint8_t> got = isAfter ? after : before;
    SmallVector<uint8_t> want(got.size());
    fillGuardPattern(want, argIndex, isAfter);
    int64_t changed = 0, first = -1;
    for (size_t i = 0; i < got.size(); ++i) {
      if (got[i] == want[i])
        continue;
      ++changed;
      // Before the buffer, the byte nearest to it is the first one a
      // kernel running backwards reaches: count offsets from the start.
      int64_t offset = isAfter ? int64_t(i) : int64_t(i) - int64_t(got.size());
      if (first < 0 || (isAfter ? offset < first : offset > first))
        first = offset;
    }
    if (changed == 0)
      continue;
    if (!text.empty())
      text += "; ";
    text += llvm::formatv("argument #{0}: {1} byte(s) {2} were written "
                          "(nearest at {3}{4})",
                          argIndex, changed,
                          isAfter ? "after its end" : "before its start",
                          isAfter ? "end+" : "start", first)
                .str();
  }
  return text;
}

ArgBuffers::~ArgBuffers() = default;

LogicalResult ArgBuffers::stage(ArrayRef<std::vector<HostBuffer>> sets,
                                std::string &) {
  hostSets = sets;
  return success();
}

LogicalResult ArgBuffers::restore(unsigned index, std::string &error) {
  if (index >= hostSets.size()) {
    error = llvm::formatv("no staged input set #{0}", index).str();
    return failure();
  }
  return upload(hostSets[index], error);
}

FailureOr<SmallVector<unsigned>>
ArgBuffers::findChangedInputs(unsigned index, std::string &error) {
  if (index >= hostSets.size()) {
    error = llvm::formatv("no staged input set #{0}", index).str();
    return failure();
  }
  // One buffer for every input read back, kept for the thread: a fresh one
  // per input and run cost more than the copy (page faults of a model's
  // weights).
  static thread_local std::unique_ptr<HostBuffer> now;
  SmallVector<unsigned> changed;
  for (auto [i, staged] : llvm::enumerate(hostSets[index])) {
    if (staged.spec.isOutput)
      continue;
    if (!now)
      now = std::make_unique<HostBuffer>(staged.spec);
    now->spec = staged.spec;
    if (failed(downloadArg(unsigned(i), *now, error)))
      return failure();
    if (now->bytes != staged.bytes)
      changed.push_back(unsigned(i));
  }
  return changed;
}

CompiledKernel::~CompiledKernel() = default;
Target::~Target() = default;

std::unique_ptr<Target> mlir::stark::createTarget(StringRef name,
                                                  MLIRContext &context,
                                                  std::string &error) {
  if (name == "cpu")
    return createCpuTarget(context);
  if (name == "cuda") {
#ifdef STARK_ENABLE_CUDA
    return createCudaTarget(context);
#else
    error = "stark was built without the CUDA target (STARK_ENABLE_CUDA=OFF)";
    return nullptr;
#endif
  }
  error =
      llvm::formatv("unknown target '{0}'; expected cpu or cuda", name).str();
  return nullptr;
}

void mlir::stark::registerCandidateDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  index::IndexDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, nvgpu::NVGPUDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  registerStarkDialect(registry);
}
