//===- CudaCodegen.cpp - CUDA C++ from payloads and views -----------------===//
//
// The code the CUDA template families share: C++ types of element kinds,
// scalar programs as CUDA statements, the common prelude, kernel parameter
// lists, index decoding and linear addresses.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "stark/Strategies/CudaCodegen.h"
#include "stark/Strategies/KernelSources.h"
#include "stark/Strategies/Kernels/Prelude.cuh.inc"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

namespace {
/// The CUDA C++ types of an element kind: as stored in memory, as computed
/// with (f16 and bf16 widen to float), and the unsigned type that unsigned
/// comparisons cast to.
struct CudaElementTypes {
  ElementKind kind;
  StringRef storage, compute, unsignedType;
};
} // namespace

static const CudaElementTypes kCudaElementTypes[] = {
    {ElementKind::F64, "double", "double", "unsigned long long"},
    {ElementKind::F32, "float", "float", "unsigned long long"},
    {ElementKind::F16, "__half", "float", "unsigned long long"},
    {ElementKind::BF16, "__nv_bfloat16", "float", "unsigned long long"},
    {ElementKind::I64, "long long", "long long", "unsigned long long"},
    {ElementKind::I32, "int", "int", "unsigned int"},
    {ElementKind::I16, "short", "short", "unsigned short"},
    {ElementKind::I8, "signed char", "signed char", "unsigned char"},
    {ElementKind::I1, "bool", "bool", "bool"}};

static const CudaElementTypes &getCudaElementTypes(ElementKind kind) {
  for (const CudaElementTypes &row : kCudaElementTypes)
    if (row.kind == kind)
      return row;
  // Not reached: every kind has a row.
  return kCudaElementTypes[1];
}

StringRef mlir::stark::getCudaStorageType(ElementKind kind) {
  return getCudaElementTypes(kind).storage;
}

StringRef mlir::stark::getCudaComputeType(ElementKind kind) {
  return getCudaElementTypes(kind).compute;
}

static StringRef getUnsignedType(ElementKind kind) {
  return getCudaElementTypes(kind).unsignedType;
}

//===----------------------------------------------------------------------===//
// Scalar programs
//===----------------------------------------------------------------------===//

/// A finite value with `digits` significant digits, as a floating-point
/// literal (a point added where %g wrote an integer).
static std::string formatFloatLiteral(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*g", digits, value);
  std::string text = buf;
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

std::string mlir::stark::emitScalarLiteral(ElementKind kind, double floatValue,
                                           int64_t intValue) {
  if (kind == ElementKind::F64) {
    if (std::isnan(floatValue))
      return "__longlong_as_double(0x7ff8000000000000LL)";
    if (std::isinf(floatValue))
      return floatValue > 0 ? "__longlong_as_double(0x7ff0000000000000LL)"
                            : "__longlong_as_double(0xfff0000000000000LL)";
    // 17 significant digits round-trip.
    return formatFloatLiteral(floatValue, 17);
  }
  if (isFloatKind(kind)) {
    float f = float(floatValue);
    if (std::isnan(f))
      return "__int_as_float(0x7fc00000)";
    if (std::isinf(f))
      return f > 0 ? "__int_as_float(0x7f800000)"
                   : "__int_as_float(0xff800000)";
    return formatFloatLiteral(double(f), 9) + "f";
  }
  switch (kind) {
  case ElementKind::I1:
    return intValue ? "true" : "false";
  case ElementKind::I64:
    return std::to_string(intValue) + "LL";
  case ElementKind::I32:
    if (intValue == INT32_MIN)
      return "(-2147483647 - 1)";
    return std::to_string(intValue);
  default:
    return "(" + getCudaComputeType(kind).str() + ")" +
           std::to_string(intValue);
  }
}

static bool isDoubleKind(ElementKind k) { return k == ElementKind::F64; }

/// C math function for `base` ("exp") on `kind`: expf for float, exp for
/// double.
static std::string mathFn(StringRef base, ElementKind kind) {
  return isDoubleKind(kind) ? base.str() : (base + "f").str();
}

static std::string emitCmpF(StringRef pred, StringRef a, StringRef b) {
  std::string x = a.str(), y = b.str();
  auto nan = [&](const std::string &v) { return "(" + v + " != " + v + ")"; };
  // C's comparison operators are false on NaN but for !=, which is true:
  // they are the ordered predicates and une as they stand. The other
  // unordered orderings are the opposite ordered comparison, negated.
  struct COperator {
    StringRef op;
    bool negated;
  };
  std::optional<COperator> c =
      llvm::StringSwitch<std::optional<COperator>>(pred)
          .Case("oeq", COperator{"==", false})
          .Case("ogt", COperator{">", false})
          .Case("oge", COperator{">=", false})
          .Case("olt", COperator{"<", false})
          .Case("ole", COperator{"<=", false})
          .Case("une", COperator{"!=", false})
          .Case("ugt", COperator{"<=", true})
          .Case("uge", COperator{"<", true})
          .Case("ult", COperator{">=", true})
          .Case("ule", COperator{">", true})
          .Default(std::nullopt);
  if (c)
    return (c->negated ? "!(" : "(") + x + " " + c->op.str() + " " + y + ")";
  if (pred == "false")
    return "false";
  if (pred == "true")
    return "true";
  if (pred == "one")
    return "(" + x + " < " + y + " || " + x + " > " + y + ")";
  if (pred == "ord")
    return "!(" + nan(x) + " || " + nan(y) + ")";
  if (pred == "ueq")
    return "!(" + x + " < " + y + " || " + x + " > " + y + ")";
  // uno
  return "(" + nan(x) + " || " + nan(y) + ")";
}

static std::string emitCmpI(StringRef pred, ElementKind kind, StringRef a,
                            StringRef b) {
  std::string x = a.str(), y = b.str();
  if (pred.starts_with("u")) {
    std::string u = getUnsignedType(kind).str();
    x = "(" + u + ")(" + x + ")";
    y = "(" + u + ")(" + y + ")";
  }
  StringRef op = llvm::StringSwitch<StringRef>(pred)
                     .Case("eq", "==")
                     .Case("ne", "!=")
                     .Case("slt", "<")
                     .Case("ult", "<")
                     .Case("sle", "<=")
                     .Case("ule", "<=")
                     .Case("sgt", ">")
                     .Case("ugt", ">")
                     .Default(">=");
  return "(" + x + " " + op.str() + " " + y + ")";
}

namespace {
/// One scalar op as the emitters of each class of ops see it: its name, its
/// operands' expressions, its result's kind and compute type, and the kind
/// of its first operand (what a comparison or a conversion reads).
struct ScalarOpText {
  ScalarOpText(const ScalarProgram &p, const ScalarNode &n,
               ArrayRef<std::string> a)
      : name(n.op), a(a), rk(n.kind), ct(getCudaComputeType(rk).str()),
        ok(n.operands.empty() ? rk : p.nodes[n.operands[0]].kind) {}

  std::string bin(StringRef op) const {
    return "(" + a[0] + " " + op.str() + " " + a[1] + ")";
  }
  /// Integer results are narrowed back to their width: C promotes to int.
  std::string ibin(StringRef op) const { return "(" + ct + ")" + bin(op); }
  std::string ubin(StringRef op) const {
    std::string u = getUnsignedType(rk).str();
    return "(" + ct + ")((" + u + ")(" + a[0] + ") " + op.str() + " (" + u +
           ")(" + a[1] + "))";
  }
  std::string fn1(StringRef base) const {
    return mathFn(base, rk) + "(" + a[0] + ")";
  }
  std::string fn2(StringRef base) const {
    return mathFn(base, rk) + "(" + a[0] + ", " + a[1] + ")";
  }

  StringRef name;
  ArrayRef<std::string> a;
  ElementKind rk;
  std::string ct;
  ElementKind ok;
};
} // namespace

namespace {
/// How a binary op is written: a C operator on its operands as they are,
/// the same narrowed back to the result's width (C promotes to int), a C
/// operator on the operands as unsigned, or a C math function.
enum class BinaryForm { Operator, Narrowed, Unsigned, Function };
struct BinaryOpText {
  StringLiteral op;
  BinaryForm form;
  StringLiteral text;
};
} // namespace

static constexpr BinaryOpText kBinaryOps[] = {
    {"arith.addf", BinaryForm::Operator, "+"},
    {"arith.subf", BinaryForm::Operator, "-"},
    {"arith.mulf", BinaryForm::Operator, "*"},
    {"arith.divf", BinaryForm::Operator, "/"},
    {"arith.addi", BinaryForm::Narrowed, "+"},
    {"arith.subi", BinaryForm::Narrowed, "-"},
    {"arith.muli", BinaryForm::Narrowed, "*"},
    {"arith.divsi", BinaryForm::Narrowed, "/"},
    {"arith.remsi", BinaryForm::Narrowed, "%"},
    {"arith.andi", BinaryForm::Narrowed, "&"},
    {"arith.ori", BinaryForm::Narrowed, "|"},
    {"arith.xori", BinaryForm::Narrowed, "^"},
    {"arith.shli", BinaryForm::Narrowed, "<<"},
    {"arith.shrsi", BinaryForm::Narrowed, ">>"},
    {"arith.divui", BinaryForm::Unsigned, "/"},
    {"arith.remui", BinaryForm::Unsigned, "%"},
    {"arith.shrui", BinaryForm::Unsigned, ">>"},
    {"arith.remf", BinaryForm::Function, "fmod"},
    {"arith.maxnumf", BinaryForm::Function, "fmax"},
    {"arith.minnumf", BinaryForm::Function, "fmin"},
    {"math.powf", BinaryForm::Function, "pow"},
    {"math.atan2", BinaryForm::Function, "atan2"},
    {"math.copysign", BinaryForm::Function, "copysign"},
};

/// The ops of kBinaryOps, or none for another op.
static std::optional<std::string> emitBinaryOp(const ScalarOpText &op) {
  const BinaryOpText *entry = llvm::find_if(
      kBinaryOps, [&](const BinaryOpText &e) { return e.op == op.name; });
  if (entry == std::end(kBinaryOps))
    return std::nullopt;
  switch (entry->form) {
  case BinaryForm::Operator:
    return op.bin(entry->text);
  case BinaryForm::Narrowed:
    return op.ibin(entry->text);
  case BinaryForm::Unsigned:
    return op.ubin(entry->text);
  case BinaryForm::Function:
    return op.fn2(entry->text);
  }
  llvm_unreachable("unknown binary form");
}

/// Negation and the minima and maxima that no C operator computes, or none
/// for another op.
static std::optional<std::string> emitMinMax(const ScalarOpText &op) {
  StringRef name = op.name;
  ArrayRef<std::string> a = op.a;
  if (name == "arith.negf")
    return "(-" + a[0] + ")";
  if (name == "arith.maximumf")
    return "stark_maximumf(" + a[0] + ", " + a[1] + ")";
  if (name == "arith.minimumf")
    return "stark_minimumf(" + a[0] + ", " + a[1] + ")";
  if (name == "arith.maxsi")
    return "(" + a[0] + " > " + a[1] + " ? " + a[0] + " : " + a[1] + ")";
  if (name == "arith.minsi")
    return "(" + a[0] + " < " + a[1] + " ? " + a[0] + " : " + a[1] + ")";
  if (name == "arith.maxui" || name == "arith.minui") {
    std::string u = getUnsignedType(op.rk).str();
    std::string cmp = name == "arith.maxui" ? " > " : " < ";
    return "((" + u + ")(" + a[0] + ")" + cmp + "(" + u + ")(" + a[1] + ") ? " +
           a[0] + " : " + a[1] + ")";
  }
  return std::nullopt;
}

/// Comparisons and select, or none for another op.
static std::optional<std::string> emitCompareSelect(const ScalarOpText &op,
                                                    const ScalarNode &n) {
  ArrayRef<std::string> a = op.a;
  if (op.name == "arith.cmpf")
    return emitCmpF(n.predicate, a[0], a[1]);
  if (op.name == "arith.cmpi")
    return emitCmpI(n.predicate, op.ok, a[0], a[1]);
  if (op.name == "arith.select")
    return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
  return std::nullopt;
}

/// The conversions of arith, or none for another op.
static std::optional<std::string> emitConversion(const ScalarOpText &op) {
  StringRef name = op.name;
  const std::string &ct = op.ct, &x = op.a[0];
  if (name == "arith.extf" || name == "arith.truncf" ||
      name == "arith.sitofp" || name == "arith.fptosi" ||
      name == "arith.extsi" || name == "arith.trunci" ||
      name == "arith.index_cast")
    return "(" + ct + ")(" + x + ")";
  if (name == "arith.uitofp" || name == "arith.extui" ||
      name == "arith.index_castui")
    return "(" + ct + ")((" + getUnsignedType(op.ok).str() + ")(" + x + "))";
  if (name == "arith.fptoui")
    return "(" + ct + ")((" + getUnsignedType(op.rk).str() + ")(" + x + "))";
  return std::nullopt;
}

/// The other ops of math: the last class tried, so every op left is taken
/// for one.
static std::string emitMathOp(const ScalarOpText &op) {
  StringRef name = op.name;
  ArrayRef<std::string> a = op.a;
  const std::string &ct = op.ct;
  if (name == "math.absf")
    return op.fn1("fabs");
  if (name == "math.absi")
    return "(" + ct + ")(" + a[0] + " < 0 ? -" + a[0] + " : " + a[0] + ")";
  if (name == "math.fpowi")
    return mathFn("pow", op.rk) + "(" + a[0] + ", (" + ct + ")(" + a[1] + "))";
  if (name == "math.roundeven")
    return op.fn1("rint");
  if (name == "math.rsqrt")
    return (isDoubleKind(op.rk) ? "rsqrt(" : "rsqrtf(") + a[0] + ")";
  if (name == "math.fma")
    return mathFn("fma", op.rk) + "(" + a[0] + ", " + a[1] + ", " + a[2] + ")";
  if (name == "math.isnan")
    return "(" + a[0] + " != " + a[0] + ")";
  if (name == "math.isinf")
    return "isinf(" + a[0] + ")";
  if (name == "math.isfinite")
    return "isfinite(" + a[0] + ")";
  // The remaining math ops are one-argument C functions of the same name.
  StringRef base = name.drop_front(strlen("math."));
  return op.fn1(base);
}

std::string mlir::stark::emitScalarOp(const ScalarProgram &p,
                                      const ScalarNode &n,
                                      ArrayRef<std::string> a) {
  ScalarOpText op(p, n, a);
  if (std::optional<std::string> text = emitBinaryOp(op))
    return *text;
  if (std::optional<std::string> text = emitMinMax(op))
    return *text;
  if (std::optional<std::string> text = emitCompareSelect(op, n))
    return *text;
  if (std::optional<std::string> text = emitConversion(op))
    return *text;
  return emitMathOp(op);
}

std::string mlir::stark::emitScalarProgram(
    const ScalarProgram &program, ArrayRef<std::string> args,
    ArrayRef<std::string> indices, StringRef prefix,
    SmallVectorImpl<std::string> &results, ArrayRef<int> roots) {
  SmallVector<bool> live = program.reachable(roots);
  SmallVector<std::string> names(program.nodes.size());
  std::string code;
  for (auto [i, node] : llvm::enumerate(program.nodes)) {
    if (!live[i])
      continue;
    if (node.op == "arg") {
      names[i] = args[node.position];
      continue;
    }
    if (node.op == "const") {
      names[i] = emitScalarLiteral(node.kind, node.floatValue, node.intValue);
      continue;
    }
    std::string expr;
    if (node.op == "index") {
      expr = "(long long)(" + indices[node.position] + ")";
    } else {
      SmallVector<std::string> operands;
      for (int o : node.operands)
        operands.push_back(names[o]);
      expr = emitScalarOp(program, node, operands);
    }
    std::string name = (prefix + Twine(i)).str();
    code += "const " + getCudaComputeType(node.kind).str() + " " + name +
            " = " + expr + ";\n";
    names[i] = name;
  }
  results.clear();
  for (int r : roots.empty() ? ArrayRef<int>(program.yields) : roots)
    results.push_back(names[r]);
  return code;
}

//===----------------------------------------------------------------------===//
// Shared code generation
//===----------------------------------------------------------------------===//

SmallVector<std::string> cudatpl::loopNames(const ProblemView &view) {
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("i" + std::to_string(d));
  return names;
}

std::string cudatpl::argName(int64_t argNumber) {
  return "arg" + std::to_string(argNumber);
}

/// The kernels' text for NVRTC, which has no standard library: without
/// their include lines (their host helpers are left out under
/// __CUDACC_RTC__; what the device code uses of <cstdint> and <type_traits>
/// is declared in their namespace, where their `std::` and integer names
/// resolve first).
void cudatpl::appendKernelText(std::string &s, StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef t = line.trim();
    if (t == "#pragma once" || t.starts_with("#include"))
      continue;
    s += line.str() + "\n";
  }
}

std::string cudatpl::getCudaPrelude(const ProblemView &view,
                                    ArrayRef<StringRef> kernelFiles) {
  (void)view;
  // The fixed text is lib/Strategies/Kernels/Prelude.cuh; the blank line
  // separates it from what the family writes next.
  std::string s = std::string("// Generated by stark's CUDA templates.\n") +
                  kernels::kPrelude + "\n";
  // NVRTC sees one source: the includes between the .cuh files are the
  // order of `kernelFiles`, and `#pragma once` has no file to refer to.
  for (StringRef fileName : kernelFiles) {
    std::optional<StringRef> text = getKernelSource(fileName);
    assert(text && "kernel source not embedded");
    appendKernelText(s, text.value_or(""));
  }
  return s;
}

std::string cudatpl::getKernelParameters(const ProblemView &view) {
  std::string s;
  unsigned numInputs = view.argKinds.size() - view.numOutputArgs;
  for (auto [i, kind] : llvm::enumerate(view.argKinds)) {
    if (i)
      s += ", ";
    bool output = i >= numInputs;
    s += (output ? "" : "const ") + getCudaStorageType(kind).str() +
         "* __restrict__ " + argName(i);
  }
  return s;
}

std::string cudatpl::getIndexType(const ProblemView &view) {
  int64_t largest = 1;
  for (ArrayRef<int64_t> shape : view.argShapes) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    largest = std::max(largest, n);
  }
  // Kernels index operands, parallel points and reduced points, never the
  // product of both kinds of loops.
  int64_t parallel = 1, reduced = 1;
  for (auto [range, reduction] :
       llvm::zip(view.loopRanges, view.reductionLoops))
    (reduction ? reduced : parallel) *= range;
  largest = std::max({largest, parallel, reduced});
  // Headroom for the one-past-the-end values of loops and tiles.
  return largest < (int64_t(1) << 30) ? "int" : "long long";
}

void cudatpl::emitLines(llvm::raw_ostream &os, StringRef indent,
                        StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, false);
  for (StringRef line : lines)
    os << indent << line << "\n";
}

std::string cudatpl::emitDecode(StringRef indent, StringRef indexType,
                                StringRef linear, ArrayRef<unsigned> loops,
                                ArrayRef<int64_t> ranges,
                                ArrayRef<std::string> names) {
  std::string s;
  int64_t stride = 1;
  SmallVector<int64_t> strides(loops.size());
  for (int64_t i = int64_t(loops.size()) - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= ranges[loops[i]];
  }
  for (auto [i, d] : llvm::enumerate(loops)) {
    std::string e = linear.str();
    if (strides[i] != 1)
      e = "(" + e + " / " + std::to_string(strides[i]) + ")";
    if (i != 0)
      e = "(" + e + " % " + std::to_string(ranges[d]) + ")";
    s += (indent + "[[maybe_unused]] const " + indexType + " " + names[d] +
          " = " + e + ";\n")
             .str();
  }
  return s;
}

std::string cudatpl::emitLinearOffset(const LinearAccess &access,
                                      ArrayRef<unsigned> loops,
                                      ArrayRef<std::string> names,
                                      bool withOffset) {
  std::string s;
  auto add = [&](const std::string &term) {
    s += s.empty() ? term : " + " + term;
  };
  if (withOffset && access.offset != 0)
    add(std::to_string(access.offset));
  for (unsigned d : loops) {
    int64_t c = access.coefficients[d];
    if (c == 0)
      continue;
    if (c == 1)
      add(names[d]);
    else
      add("(" + std::to_string(c) + ") * " + names[d]);
  }
  return s.empty() ? "0" : s;
}

bool cudatpl::isAlignedExcept(const LinearAccess &access,
                              ArrayRef<unsigned> except, int64_t vec) {
  if (access.offset % vec != 0)
    return false;
  for (auto [d, c] : llvm::enumerate(access.coefficients))
    if (!llvm::is_contained(except, unsigned(d)) && c % vec != 0)
      return false;
  return true;
}

int64_t cudatpl::ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t cudatpl::getMaxBlockThreads(const HardwareProfile &profile) {
  return profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
}

int64_t cudatpl::getNumUnits(const HardwareProfile &profile) {
  return std::max<int64_t>(profile.numComputeUnits, 1);
}

SmallVector<int64_t> cudatpl::getVectorWidths(int64_t maxVec) {
  SmallVector<int64_t> vecs = {maxVec};
  if (maxVec > 1)
    vecs.push_back(1);
  return vecs;
}

int64_t cudatpl::getWidestInputBytes(const ProblemView &view) {
  int64_t bytes = 1;
  for (const OperandView &in : view.inputs)
    if (in.argNumber >= 0)
      bytes = std::max(bytes, getElementKindBytes(in.kind));
  return bytes;
}

bool cudatpl::rowCachesFitTwoBlocks(const HardwareProfile &profile,
                                    int64_t bytes) {
  int64_t perUnit = profile.sharedMemoryPerUnit > 0
                        ? profile.sharedMemoryPerUnit - 8 * 1024
                        : kMaxRowCacheBytes;
  return 2 * bytes <= std::min(perUnit, kMaxRowCacheBytes);
}

SmallVector<RowBlockShape>
cudatpl::getRowBlockShapes(int64_t length, int64_t maxVec, int64_t numRows,
                           int64_t sms, ArrayRef<int64_t> longRowLanes) {
  SmallVector<RowBlockShape> shapes;
  for (int64_t vec : getVectorWidths(maxVec)) {
    int64_t perLane = ceilDiv(length, vec);
    SmallVector<int64_t> lanes;
    if (perLane <= 64)
      lanes = {32, 16, 64};
    else if (perLane <= 1024)
      lanes = {32, 64, 128, 256};
    else
      lanes.assign(longRowLanes.begin(), longRowLanes.end());
    for (int64_t tpr : lanes) {
      int64_t rows = std::max<int64_t>(1, 256 / tpr);
      if (ceilDiv(numRows, rows) < sms)
        rows = std::max<int64_t>(32 / std::min<int64_t>(tpr, 32), rows / 4);
      shapes.push_back({tpr, rows, vec});
    }
  }
  return shapes;
}

LogicalResult cudatpl::checkRowVector(int64_t vec, int64_t maxVec,
                                      std::string &whyNot) {
  if (vec <= maxVec)
    return success();
  whyNot = llvm::formatv("vec={0} exceeds the widest aligned access along "
                         "the rows ({1})",
                         vec, maxVec);
  return failure();
}

LogicalResult cudatpl::checkRegisterCache(int64_t perLane,
                                          std::string &whyNot) {
  if (perLane <= 32)
    return success();
  whyNot = llvm::formatv("cache=1 keeps {0} elements per lane in registers "
                         "(at most 32)",
                         perLane);
  return failure();
}

CudaKernelPlan cudatpl::makeOneLaunchPlan(StringRef family, std::string source,
                                          StringRef kernel,
                                          std::array<int64_t, 3> grid,
                                          std::array<int64_t, 3> block,
                                          int64_t staticShared,
                                          int64_t dynamicShared) {
  CudaKernelPlan plan;
  plan.source = std::move(source);
  plan.family = family.str();
  CudaKernelPlan::Launch launch;
  launch.kernel = kernel.str();
  launch.grid = grid;
  launch.block = block;
  launch.sharedBytes = dynamicShared;
  plan.launches.push_back(launch);
  plan.threadsPerBlock = block[0] * block[1] * block[2];
  plan.sharedBytesPerBlock = staticShared + dynamicShared;
  return plan;
}

void cudatpl::setParam(CudaKernelPlan &plan, StringRef key, int64_t value) {
  plan.params[key.str()] = std::to_string(value);
}

std::string cudatpl::emitCombine(StringRef combiner, ElementKind kind,
                                 StringRef a, StringRef b) {
  std::string x = a.str(), y = b.str();
  bool fp = isFloatKind(kind);
  bool dbl = kind == ElementKind::F64;
  if (combiner == "add")
    return "(" + x + " + " + y + ")";
  if (combiner == "mul")
    return "(" + x + " * " + y + ")";
  if (combiner == "max")
    return fp ? "stark_maximumf(" + x + ", " + y + ")"
              : "(" + x + " > " + y + " ? " + x + " : " + y + ")";
  if (combiner == "min")
    return fp ? "stark_minimumf(" + x + ", " + y + ")"
              : "(" + x + " < " + y + " ? " + x + " : " + y + ")";
  if (combiner == "maxnum")
    return std::string(dbl ? "fmax(" : "fmaxf(") + x + ", " + y + ")";
  if (combiner == "minnum")
    return std::string(dbl ? "fmin(" : "fminf(") + x + ", " + y + ")";
  if (combiner == "and")
    return "(" + x + " & " + y + ")";
  if (combiner == "or")
    return "(" + x + " | " + y + ")";
  return "(" + x + " ^ " + y + ")";
}

std::string cudatpl::emitCombineIdentity(StringRef combiner, ElementKind kind) {
  bool fp = isFloatKind(kind);
  if (combiner == "add" || combiner == "or" || combiner == "xor")
    return emitScalarLiteral(kind, 0.0, 0);
  if (combiner == "mul")
    return emitScalarLiteral(kind, 1.0, 1);
  if (combiner == "and")
    return emitScalarLiteral(kind, 0.0, -1);
  bool max = combiner == "max" || combiner == "maxnum";
  if (fp)
    return emitScalarLiteral(kind, max ? -INFINITY : INFINITY, 0);
  int64_t bits = getElementKindBytes(kind) * 8;
  int64_t hi = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
  int64_t lo = -hi - 1;
  if (bits == 64)
    return max ? "(-9223372036854775807LL - 1)" : "9223372036854775807LL";
  return emitScalarLiteral(kind, 0.0, max ? lo : hi);
}
