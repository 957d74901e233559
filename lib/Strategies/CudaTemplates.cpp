//===- CudaTemplates.cpp - Problem views, payloads and family dispatch ----===//

#include "CudaTemplatesInternal.h"

#include "stark/Problem/KernelProblem.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// Scalar kinds
//===----------------------------------------------------------------------===//

FailureOr<ScalarKind> mlir::stark::getScalarKind(Type type) {
  if (type.isF16())
    return ScalarKind::F16;
  if (type.isBF16())
    return ScalarKind::BF16;
  if (type.isF32())
    return ScalarKind::F32;
  if (type.isF64())
    return ScalarKind::F64;
  if (type.isIndex())
    return ScalarKind::I64;
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 1:
      return ScalarKind::I1;
    case 8:
      return ScalarKind::I8;
    case 16:
      return ScalarKind::I16;
    case 32:
      return ScalarKind::I32;
    case 64:
      return ScalarKind::I64;
    default:
      break;
    }
  }
  return failure();
}

StringRef mlir::stark::stringifyScalarKind(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F16:
    return "f16";
  case ScalarKind::BF16:
    return "bf16";
  case ScalarKind::F32:
    return "f32";
  case ScalarKind::F64:
    return "f64";
  case ScalarKind::I1:
    return "i1";
  case ScalarKind::I8:
    return "i8";
  case ScalarKind::I16:
    return "i16";
  case ScalarKind::I32:
    return "i32";
  case ScalarKind::I64:
    return "i64";
  }
  return "?";
}

bool mlir::stark::isFloatKind(ScalarKind kind) {
  return kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
         kind == ScalarKind::F32 || kind == ScalarKind::F64;
}

int64_t mlir::stark::getScalarKindBytes(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
  case ScalarKind::I8:
    return 1;
  case ScalarKind::F16:
  case ScalarKind::BF16:
  case ScalarKind::I16:
    return 2;
  case ScalarKind::F32:
  case ScalarKind::I32:
    return 4;
  case ScalarKind::F64:
  case ScalarKind::I64:
    return 8;
  }
  return 4;
}

StringRef mlir::stark::getCudaStorageType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F16:
    return "__half";
  case ScalarKind::BF16:
    return "__nv_bfloat16";
  default:
    return getCudaComputeType(kind);
  }
}

StringRef mlir::stark::getCudaComputeType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F16:
  case ScalarKind::BF16:
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  case ScalarKind::I1:
    return "bool";
  case ScalarKind::I8:
    return "signed char";
  case ScalarKind::I16:
    return "short";
  case ScalarKind::I32:
    return "int";
  case ScalarKind::I64:
    return "long long";
  }
  return "float";
}

static StringRef getUnsignedType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return "bool";
  case ScalarKind::I8:
    return "unsigned char";
  case ScalarKind::I16:
    return "unsigned short";
  case ScalarKind::I32:
    return "unsigned int";
  default:
    return "unsigned long long";
  }
}

//===----------------------------------------------------------------------===//
// Scalar programs
//===----------------------------------------------------------------------===//

bool ScalarProgram::usesArg(unsigned arg) const {
  SmallVector<bool> live = reachable();
  for (auto [i, node] : llvm::enumerate(nodes))
    if (live[i] && node.op == "arg" && node.position == int64_t(arg))
      return true;
  return false;
}

SmallVector<bool> ScalarProgram::reachable(ArrayRef<int> roots) const {
  SmallVector<bool> live(nodes.size(), false);
  for (int r : roots.empty() ? ArrayRef<int>(yields) : roots)
    live[r] = true;
  for (int i = int(nodes.size()) - 1; i >= 0; --i)
    if (live[i])
      for (int o : nodes[i].operands)
        live[o] = true;
  return live;
}

/// Ops with a CUDA translation (see emitOp).
static const llvm::StringSet<> &getSupportedOps() {
  static const llvm::StringSet<> ops = {
      // arith, floating point
      "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
      "arith.negf", "arith.maximumf", "arith.minimumf", "arith.maxnumf",
      "arith.minnumf", "arith.cmpf", "arith.select",
      // arith, integer
      "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.remsi",
      "arith.divui", "arith.remui", "arith.andi", "arith.ori", "arith.xori",
      "arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi",
      "arith.maxui", "arith.minui", "arith.cmpi",
      // arith, casts
      "arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp",
      "arith.fptosi", "arith.fptoui", "arith.extsi", "arith.extui",
      "arith.trunci", "arith.index_cast", "arith.index_castui",
      // math
      "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2",
      "math.log10", "math.log1p", "math.tanh", "math.sqrt", "math.rsqrt",
      "math.erf", "math.erfc", "math.absf", "math.absi", "math.powf",
      "math.fpowi", "math.sin", "math.cos", "math.tan", "math.asin",
      "math.acos", "math.atan", "math.atan2", "math.sinh", "math.cosh",
      "math.asinh", "math.acosh", "math.atanh", "math.floor", "math.ceil",
      "math.round", "math.roundeven", "math.trunc", "math.fma", "math.copysign",
      "math.cbrt", "math.isnan", "math.isinf", "math.isfinite"};
  return ops;
}

static FailureOr<ScalarNode> makeConstantNode(Attribute value, Type type,
                                              std::string &whyNot) {
  FailureOr<ScalarKind> kind = getScalarKind(type);
  if (failed(kind)) {
    whyNot = "constant of unsupported type";
    return failure();
  }
  ScalarNode node;
  node.op = "const";
  node.kind = *kind;
  if (auto f = dyn_cast<FloatAttr>(value)) {
    node.floatValue = f.getValue().convertToDouble();
    return node;
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    node.intValue = *kind == ScalarKind::I1
                        ? int64_t(i.getValue().getZExtValue())
                        : i.getValue().getSExtValue();
    return node;
  }
  whyNot = "constant that is neither an integer nor a float";
  return failure();
}

FailureOr<ScalarProgram>
mlir::stark::extractScalarProgram(Operation *op, std::string &whyNot) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    whyNot = "not a linalg structured op";
    return failure();
  }
  Block *block = linalgOp.getBlock();
  ScalarProgram program;
  DenseMap<Value, int> ids;
  auto push = [&](ScalarNode node) {
    program.nodes.push_back(std::move(node));
    return int(program.nodes.size()) - 1;
  };

  for (auto [i, arg] : llvm::enumerate(block->getArguments())) {
    FailureOr<ScalarKind> kind = getScalarKind(arg.getType());
    if (failed(kind)) {
      whyNot = llvm::formatv("payload argument #{0} has unsupported type", i);
      return failure();
    }
    program.argKinds.push_back(*kind);
    Value operand = op->getOperand(i);
    if (!isa<ShapedType>(operand.getType())) {
      Attribute value;
      if (!matchPattern(operand, m_Constant(&value))) {
        whyNot = llvm::formatv("scalar operand #{0} is not a constant", i);
        return failure();
      }
      FailureOr<ScalarNode> node =
          makeConstantNode(value, arg.getType(), whyNot);
      if (failed(node))
        return failure();
      ids[arg] = push(*node);
      continue;
    }
    ScalarNode node;
    node.op = "arg";
    node.kind = *kind;
    node.position = int64_t(i);
    ids[arg] = push(node);
  }

  // Values from above the payload: only constants can be folded in.
  auto lookup = [&](Value v) -> FailureOr<int> {
    auto it = ids.find(v);
    if (it != ids.end())
      return it->second;
    Attribute value;
    if (!matchPattern(v, m_Constant(&value))) {
      whyNot = "the payload uses a value defined outside it that is not a "
               "constant";
      return failure();
    }
    FailureOr<ScalarNode> node = makeConstantNode(value, v.getType(), whyNot);
    if (failed(node))
      return failure();
    return ids[v] = push(*node);
  };

  for (Operation &bodyOp : block->without_terminator()) {
    StringRef name = bodyOp.getName().getStringRef();
    if (bodyOp.getNumResults() != 1) {
      whyNot = llvm::formatv("payload op '{0}' has no CUDA translation", name);
      return failure();
    }
    FailureOr<ScalarKind> kind = getScalarKind(bodyOp.getResult(0).getType());
    if (failed(kind)) {
      whyNot = llvm::formatv("payload op '{0}' has an unsupported result type",
                             name);
      return failure();
    }
    ScalarNode node;
    node.kind = *kind;
    if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
      node.op = "index";
      node.position = int64_t(index.getDim());
      ids[bodyOp.getResult(0)] = push(node);
      continue;
    }
    Attribute value;
    if (matchPattern(bodyOp.getResult(0), m_Constant(&value))) {
      FailureOr<ScalarNode> c =
          makeConstantNode(value, bodyOp.getResult(0).getType(), whyNot);
      if (failed(c))
        return failure();
      ids[bodyOp.getResult(0)] = push(*c);
      continue;
    }
    if (!getSupportedOps().contains(name)) {
      whyNot = llvm::formatv("payload op '{0}' has no CUDA translation", name);
      return failure();
    }
    for (Value operand : bodyOp.getOperands()) {
      FailureOr<int> id = lookup(operand);
      if (failed(id))
        return failure();
      node.operands.push_back(*id);
      if (failed(getScalarKind(operand.getType()))) {
        whyNot = llvm::formatv("payload op '{0}' has an unsupported operand "
                               "type",
                               name);
        return failure();
      }
    }
    if (auto cmp = dyn_cast<arith::CmpFOp>(bodyOp))
      node.predicate = arith::stringifyCmpFPredicate(cmp.getPredicate()).str();
    if (auto cmp = dyn_cast<arith::CmpIOp>(bodyOp))
      node.predicate = arith::stringifyCmpIPredicate(cmp.getPredicate()).str();
    node.op = name.str();
    ids[bodyOp.getResult(0)] = push(node);
  }
  for (Value v : block->getTerminator()->getOperands()) {
    FailureOr<int> id = lookup(v);
    if (failed(id))
      return failure();
    program.yields.push_back(*id);
  }
  return program;
}

std::string mlir::stark::emitScalarLiteral(ScalarKind kind, double floatValue,
                                           int64_t intValue) {
  if (kind == ScalarKind::F64) {
    if (std::isnan(floatValue))
      return "__longlong_as_double(0x7ff8000000000000LL)";
    if (std::isinf(floatValue))
      return floatValue > 0 ? "__longlong_as_double(0x7ff0000000000000LL)"
                            : "__longlong_as_double(0xfff0000000000000LL)";
    // 17 significant digits round-trip.
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.17g", floatValue);
    std::string text = buf;
    if (text.find_first_of(".e") == std::string::npos)
      text += ".0";
    return text;
  }
  if (isFloatKind(kind)) {
    float f = float(floatValue);
    if (std::isnan(f))
      return "__int_as_float(0x7fc00000)";
    if (std::isinf(f))
      return f > 0 ? "__int_as_float(0x7f800000)"
                   : "__int_as_float(0xff800000)";
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.9g", double(f));
    std::string text = buf;
    if (text.find_first_of(".e") == std::string::npos)
      text += ".0";
    return text + "f";
  }
  switch (kind) {
  case ScalarKind::I1:
    return intValue ? "true" : "false";
  case ScalarKind::I64:
    return std::to_string(intValue) + "LL";
  case ScalarKind::I32:
    if (intValue == INT32_MIN)
      return "(-2147483647 - 1)";
    return std::to_string(intValue);
  default:
    return "(" + getCudaComputeType(kind).str() + ")" +
           std::to_string(intValue);
  }
}

static bool isDoubleKind(ScalarKind k) { return k == ScalarKind::F64; }

/// C math function for `base` ("exp") on `kind`: expf for float, exp for
/// double.
static std::string mathFn(StringRef base, ScalarKind kind) {
  return isDoubleKind(kind) ? base.str() : (base + "f").str();
}

static std::string emitCmpF(StringRef pred, StringRef a, StringRef b) {
  std::string x = a.str(), y = b.str();
  auto nan = [&](const std::string &v) { return "(" + v + " != " + v + ")"; };
  if (pred == "false")
    return "false";
  if (pred == "true")
    return "true";
  if (pred == "oeq")
    return "(" + x + " == " + y + ")";
  if (pred == "ogt")
    return "(" + x + " > " + y + ")";
  if (pred == "oge")
    return "(" + x + " >= " + y + ")";
  if (pred == "olt")
    return "(" + x + " < " + y + ")";
  if (pred == "ole")
    return "(" + x + " <= " + y + ")";
  if (pred == "one")
    return "(" + x + " < " + y + " || " + x + " > " + y + ")";
  if (pred == "ord")
    return "!(" + nan(x) + " || " + nan(y) + ")";
  if (pred == "ueq")
    return "!(" + x + " < " + y + " || " + x + " > " + y + ")";
  if (pred == "ugt")
    return "!(" + x + " <= " + y + ")";
  if (pred == "uge")
    return "!(" + x + " < " + y + ")";
  if (pred == "ult")
    return "!(" + x + " >= " + y + ")";
  if (pred == "ule")
    return "!(" + x + " > " + y + ")";
  if (pred == "une")
    return "(" + x + " != " + y + ")";
  // uno
  return "(" + nan(x) + " || " + nan(y) + ")";
}

static std::string emitCmpI(StringRef pred, ScalarKind kind, StringRef a,
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

/// The expression of one node; `a` are its operands' expressions.
static std::string emitOp(const ScalarProgram &p, const ScalarNode &n,
                          ArrayRef<std::string> a) {
  StringRef name = n.op;
  ScalarKind rk = n.kind;
  std::string ct = getCudaComputeType(rk).str();
  ScalarKind ok = n.operands.empty() ? rk : p.nodes[n.operands[0]].kind;
  auto bin = [&](StringRef op) {
    return "(" + a[0] + " " + op.str() + " " + a[1] + ")";
  };
  // Integer results are narrowed back to their width: C promotes to int.
  auto ibin = [&](StringRef op) { return "(" + ct + ")" + bin(op); };
  auto ubin = [&](StringRef op) {
    std::string u = getUnsignedType(rk).str();
    return "(" + ct + ")((" + u + ")(" + a[0] + ") " + op.str() + " (" + u +
           ")(" + a[1] + "))";
  };
  auto fn1 = [&](StringRef base) {
    return mathFn(base, rk) + "(" + a[0] + ")";
  };
  auto fn2 = [&](StringRef base) {
    return mathFn(base, rk) + "(" + a[0] + ", " + a[1] + ")";
  };
  bool dbl = isDoubleKind(rk);

  if (name == "arith.addf")
    return bin("+");
  if (name == "arith.subf")
    return bin("-");
  if (name == "arith.mulf")
    return bin("*");
  if (name == "arith.divf")
    return bin("/");
  if (name == "arith.remf")
    return fn2("fmod");
  if (name == "arith.negf")
    return "(-" + a[0] + ")";
  if (name == "arith.maximumf")
    return "stark_maximumf(" + a[0] + ", " + a[1] + ")";
  if (name == "arith.minimumf")
    return "stark_minimumf(" + a[0] + ", " + a[1] + ")";
  if (name == "arith.maxnumf")
    return fn2("fmax");
  if (name == "arith.minnumf")
    return fn2("fmin");
  if (name == "arith.cmpf")
    return emitCmpF(n.predicate, a[0], a[1]);
  if (name == "arith.cmpi")
    return emitCmpI(n.predicate, ok, a[0], a[1]);
  if (name == "arith.select")
    return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
  if (name == "arith.addi")
    return ibin("+");
  if (name == "arith.subi")
    return ibin("-");
  if (name == "arith.muli")
    return ibin("*");
  if (name == "arith.divsi")
    return ibin("/");
  if (name == "arith.remsi")
    return ibin("%");
  if (name == "arith.divui")
    return ubin("/");
  if (name == "arith.remui")
    return ubin("%");
  if (name == "arith.andi")
    return ibin("&");
  if (name == "arith.ori")
    return ibin("|");
  if (name == "arith.xori")
    return ibin("^");
  if (name == "arith.shli")
    return ibin("<<");
  if (name == "arith.shrsi")
    return ibin(">>");
  if (name == "arith.shrui")
    return ubin(">>");
  if (name == "arith.maxsi")
    return "(" + a[0] + " > " + a[1] + " ? " + a[0] + " : " + a[1] + ")";
  if (name == "arith.minsi")
    return "(" + a[0] + " < " + a[1] + " ? " + a[0] + " : " + a[1] + ")";
  if (name == "arith.maxui" || name == "arith.minui") {
    std::string u = getUnsignedType(rk).str();
    std::string cmp = name == "arith.maxui" ? " > " : " < ";
    return "((" + u + ")(" + a[0] + ")" + cmp + "(" + u + ")(" + a[1] + ") ? " +
           a[0] + " : " + a[1] + ")";
  }
  if (name == "arith.extf" || name == "arith.truncf" ||
      name == "arith.sitofp" || name == "arith.fptosi" ||
      name == "arith.extsi" || name == "arith.trunci" ||
      name == "arith.index_cast")
    return "(" + ct + ")(" + a[0] + ")";
  if (name == "arith.uitofp" || name == "arith.extui" ||
      name == "arith.index_castui")
    return "(" + ct + ")((" + getUnsignedType(ok).str() + ")(" + a[0] + "))";
  if (name == "arith.fptoui")
    return "(" + ct + ")((" + getUnsignedType(rk).str() + ")(" + a[0] + "))";

  if (name == "math.absf")
    return fn1("fabs");
  if (name == "math.absi")
    return "(" + ct + ")(" + a[0] + " < 0 ? -" + a[0] + " : " + a[0] + ")";
  if (name == "math.powf")
    return fn2("pow");
  if (name == "math.fpowi")
    return mathFn("pow", rk) + "(" + a[0] + ", (" + ct + ")(" + a[1] + "))";
  if (name == "math.roundeven")
    return fn1("rint");
  if (name == "math.rsqrt")
    return (dbl ? "rsqrt(" : "rsqrtf(") + a[0] + ")";
  if (name == "math.fma")
    return mathFn("fma", rk) + "(" + a[0] + ", " + a[1] + ", " + a[2] + ")";
  if (name == "math.atan2")
    return fn2("atan2");
  if (name == "math.copysign")
    return fn2("copysign");
  if (name == "math.isnan")
    return "(" + a[0] + " != " + a[0] + ")";
  if (name == "math.isinf")
    return "isinf(" + a[0] + ")";
  if (name == "math.isfinite")
    return "isfinite(" + a[0] + ")";
  // The remaining math ops are one-argument C functions of the same name.
  StringRef base = name.drop_front(strlen("math."));
  return fn1(base);
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
      expr = emitOp(program, node, operands);
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
// Problem views
//===----------------------------------------------------------------------===//

int64_t ProblemView::numParallelPoints() const {
  int64_t points = 1;
  for (auto [range, reduction] : llvm::zip(loopRanges, reductionLoops))
    if (!reduction)
      points *= range;
  return points;
}

/// Adds `scale * e` to the linear form; fails for non-linear expressions.
static LogicalResult linearize(AffineExpr e, int64_t scale,
                               MutableArrayRef<int64_t> coefficients,
                               int64_t &offset) {
  if (auto dim = dyn_cast<AffineDimExpr>(e)) {
    coefficients[dim.getPosition()] += scale;
    return success();
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    offset += scale * c.getValue();
    return success();
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(e);
  if (!binary)
    return failure();
  if (e.getKind() == AffineExprKind::Add)
    return success(
        succeeded(linearize(binary.getLHS(), scale, coefficients, offset)) &&
        succeeded(linearize(binary.getRHS(), scale, coefficients, offset)));
  if (e.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return linearize(binary.getLHS(), scale * c.getValue(), coefficients,
                       offset);
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return linearize(binary.getRHS(), scale * c.getValue(), coefficients,
                       offset);
  }
  return failure();
}

static FailureOr<LinearAccess> getLinearAccess(AffineMap map,
                                               ArrayRef<int64_t> shape) {
  LinearAccess access;
  access.coefficients.assign(map.getNumDims(), 0);
  int64_t stride = 1;
  for (int64_t r = int64_t(map.getNumResults()) - 1; r >= 0; --r) {
    if (failed(linearize(map.getResult(r), stride, access.coefficients,
                         access.offset)))
      return failure();
    stride *= shape[r];
  }
  return access;
}

/// Strips float casts off a payload value (a matmul on f16 reads through
/// extf).
static int stripFloatCasts(const ScalarProgram &p, int node) {
  while (p.nodes[node].op == "arith.extf" || p.nodes[node].op == "arith.truncf")
    node = p.nodes[node].operands[0];
  return node;
}

static bool isArgNode(const ScalarProgram &p, int node, int64_t arg) {
  return p.nodes[node].op == "arg" && p.nodes[node].position == arg;
}

/// Number of live uses of each node.
static SmallVector<int> countUses(const ScalarProgram &p) {
  SmallVector<int> uses(p.nodes.size(), 0);
  SmallVector<bool> live = p.reachable();
  for (auto [i, node] : llvm::enumerate(p.nodes))
    if (live[i])
      for (int o : node.operands)
        ++uses[o];
  for (int y : p.yields)
    ++uses[y];
  return uses;
}

/// out + a * b with float types, operands in any order, casts allowed on a
/// and b.
static bool isMulAddBody(const ScalarProgram &p) {
  if (p.yields.size() != 1 || p.argKinds.size() != 3)
    return false;
  if (!llvm::all_of(p.argKinds, isFloatKind))
    return false;
  const ScalarNode &add = p.nodes[p.yields[0]];
  if (add.op != "arith.addf")
    return false;
  int mul = -1;
  if (isArgNode(p, add.operands[0], 2))
    mul = add.operands[1];
  else if (isArgNode(p, add.operands[1], 2))
    mul = add.operands[0];
  if (mul < 0 || p.nodes[mul].op != "arith.mulf")
    return false;
  int x = stripFloatCasts(p, p.nodes[mul].operands[0]);
  int y = stripFloatCasts(p, p.nodes[mul].operands[1]);
  bool direct = isArgNode(p, x, 0) && isArgNode(p, y, 1);
  bool swapped = isArgNode(p, x, 1) && isArgNode(p, y, 0);
  if (!direct && !swapped)
    return false;
  SmallVector<int> uses = countUses(p);
  for (auto [i, node] : llvm::enumerate(p.nodes))
    if (node.op == "arg" && uses[i] > 1)
      return false;
  return true;
}

static FailureOr<ContractionView> analyzeContraction(const ProblemView &view,
                                                     std::string &whyNot) {
  if (view.inputs.size() != 2 || view.outputs.size() != 1 ||
      view.inputs[0].argNumber < 0 || view.inputs[1].argNumber < 0) {
    whyNot = "not two shaped inputs and one output";
    return failure();
  }
  if (!view.body || !isMulAddBody(*view.body)) {
    whyNot = "the payload is not out + a * b on floats";
    return failure();
  }
  const LinearAccess &a = view.inputs[0].access;
  const LinearAccess &b = view.inputs[1].access;
  const LinearAccess &c = view.outputs[0].access;
  ContractionView cv;
  for (int64_t d = 0; d < view.numLoops(); ++d) {
    bool inA = a.dependsOn(d), inB = b.dependsOn(d), inC = c.dependsOn(d);
    if (view.reductionLoops[d]) {
      if (inC) {
        whyNot = "the output depends on a reduction loop";
        return failure();
      }
      cv.kLoops.push_back(d);
    } else if (inA && inB && inC) {
      cv.batchLoops.push_back(d);
    } else if (inA && inC && !inB) {
      cv.mLoops.push_back(d);
    } else if (inB && inC && !inA) {
      cv.nLoops.push_back(d);
    } else {
      whyNot =
          llvm::formatv("parallel loop d{0} is not a batch, m or n loop", d);
      return failure();
    }
  }
  if (cv.kLoops.empty()) {
    whyNot = "no reduction loop";
    return failure();
  }
  // Decode order: the output's layout for batch, m and n (so the epilogue
  // walks it in order), A's layout for k (so A's contiguous loop is
  // innermost), B's where A does not tell.
  auto sortBy = [&](SmallVector<unsigned> &loops, const LinearAccess &first,
                    const LinearAccess &second) {
    llvm::stable_sort(loops, [&](unsigned x, unsigned y) {
      int64_t fx = std::abs(first.coefficients[x]),
              fy = std::abs(first.coefficients[y]);
      if (fx != fy)
        return fx > fy;
      return std::abs(second.coefficients[x]) >
             std::abs(second.coefficients[y]);
    });
  };
  sortBy(cv.batchLoops, c, a);
  sortBy(cv.mLoops, c, a);
  sortBy(cv.nLoops, c, b);
  sortBy(cv.kLoops, a, b);
  cv.batch = productOver(cv.batchLoops, view.loopRanges);
  cv.m = productOver(cv.mLoops, view.loopRanges);
  cv.n = productOver(cv.nLoops, view.loopRanges);
  cv.k = productOver(cv.kLoops, view.loopRanges);
  // The loop with the smallest stride decides which way an operand is laid
  // out.
  auto fastest = [&](const LinearAccess &acc) {
    int64_t best = -1, bestStride = 0;
    for (int64_t d = 0; d < view.numLoops(); ++d) {
      int64_t s = std::abs(acc.coefficients[d]);
      if (s != 0 && (best < 0 || s < bestStride)) {
        best = d;
        bestStride = s;
      }
    }
    return best;
  };
  int64_t fa = fastest(a), fb = fastest(b);
  cv.transposeA = fa >= 0 && llvm::is_contained(cv.mLoops, unsigned(fa));
  cv.transposeB = fb >= 0 && llvm::is_contained(cv.kLoops, unsigned(fb));
  cv.aKind = view.inputs[0].kind;
  cv.bKind = view.inputs[1].kind;
  cv.cKind = view.outputs[0].kind;
  return cv;
}

/// Combiner of a reduction payload: yields[0] = combine(pre, out) with the
/// output argument used nowhere else.
static FailureOr<ReductionView> analyzeReduction(const ProblemView &view,
                                                 std::string &whyNot) {
  if (view.outputs.size() != 1) {
    whyNot = "more than one output";
    return failure();
  }
  if (!view.body) {
    whyNot = view.whyNoBody;
    return failure();
  }
  const ScalarProgram &p = *view.body;
  int64_t outArg = int64_t(view.inputs.size());
  int y = p.yields[0];
  const ScalarNode &node = p.nodes[y];
  static const std::pair<StringRef, StringRef> combiners[] = {
      {"arith.addf", "add"},       {"arith.mulf", "mul"},
      {"arith.maximumf", "max"},   {"arith.minimumf", "min"},
      {"arith.maxnumf", "maxnum"}, {"arith.minnumf", "minnum"},
      {"arith.addi", "add"},       {"arith.muli", "mul"},
      {"arith.maxsi", "max"},      {"arith.minsi", "min"},
      {"arith.andi", "and"},       {"arith.ori", "or"},
      {"arith.xori", "xor"}};
  ReductionView rv;
  int pre = -1;
  for (auto [op, combiner] : combiners) {
    if (node.op != op)
      continue;
    if (isArgNode(p, node.operands[1], outArg))
      pre = node.operands[0];
    else if (isArgNode(p, node.operands[0], outArg))
      pre = node.operands[1];
    rv.combiner = combiner.str();
  }
  // select(cmpf(ogt|oge, x, out), x, out) is a max, olt|ole a min.
  if (node.op == "arith.select" && isArgNode(p, node.operands[2], outArg)) {
    const ScalarNode &cmp = p.nodes[node.operands[0]];
    int x = node.operands[1];
    if (cmp.op == "arith.cmpf" && cmp.operands[0] == x &&
        isArgNode(p, cmp.operands[1], outArg)) {
      if (cmp.predicate == "ogt" || cmp.predicate == "oge")
        rv.combiner = "maxnum";
      else if (cmp.predicate == "olt" || cmp.predicate == "ole")
        rv.combiner = "minnum";
      if (!rv.combiner.empty())
        pre = x;
    }
  }
  if (pre < 0 || rv.combiner.empty()) {
    whyNot = "the payload is not a recognised combiner (add, mul, max, min, "
             "and, or, xor) of the output and a value of the inputs";
    return failure();
  }
  SmallVector<bool> preLive = p.reachable({pre});
  for (auto [i, n] : llvm::enumerate(p.nodes))
    if (preLive[i] && isArgNode(p, int(i), outArg)) {
      whyNot = "the combined value depends on the output";
      return failure();
    }
  if (p.nodes[y].kind == ScalarKind::I1) {
    whyNot = "i1 reductions are not supported";
    return failure();
  }
  rv.preNode = pre;
  ScalarKind k = p.nodes[y].kind;
  rv.accumulatorKind =
      (k == ScalarKind::F16 || k == ScalarKind::BF16) ? ScalarKind::F32 : k;

  const LinearAccess &out = view.outputs[0].access;
  for (int64_t d = 0; d < view.numLoops(); ++d) {
    if (view.reductionLoops[d]) {
      if (out.dependsOn(d)) {
        whyNot = "the output depends on a reduction loop";
        return failure();
      }
      rv.reducedLoops.push_back(d);
    } else {
      rv.parallelLoops.push_back(d);
    }
  }
  if (rv.reducedLoops.empty()) {
    whyNot = "no reduction loop";
    return failure();
  }
  rv.parallelLoops = sortLoopsByStride(rv.parallelLoops, out);
  if (!isDenseOver(out, rv.parallelLoops, view.loopRanges)) {
    whyNot = "the output is not a dense permutation of the parallel loops";
    return failure();
  }
  // The largest input that depends on the reduction sets the order.
  auto numElements = [](ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  };
  const OperandView *primary = nullptr;
  for (const OperandView &in : view.inputs) {
    if (in.argNumber < 0 || llvm::none_of(rv.reducedLoops, [&](unsigned d) {
          return in.access.dependsOn(d);
        }))
      continue;
    if (!primary || numElements(in.shape) > numElements(primary->shape))
      primary = &in;
  }
  if (primary) {
    rv.reducedLoops = sortLoopsByStride(rv.reducedLoops, primary->access);
    rv.innerContiguous =
        isDenseOver(primary->access, rv.reducedLoops, view.loopRanges) || [&] {
          // Dense over the reduced loops with the parallel loops outside.
          int64_t expected = 1;
          for (unsigned d : llvm::reverse(rv.reducedLoops)) {
            if (primary->access.coefficients[d] != expected)
              return false;
            expected *= view.loopRanges[d];
          }
          return llvm::all_of(rv.parallelLoops, [&](unsigned d) {
            return primary->access.coefficients[d] % expected == 0;
          });
        }();
  }
  rv.rows = productOver(rv.parallelLoops, view.loopRanges);
  rv.length = productOver(rv.reducedLoops, view.loopRanges);
  return rv;
}

static FailureOr<ConvolutionView> analyzeConvolution(linalg::LinalgOp op) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims))
    return failure();
  ConvolutionView cv;
  cv.batch.assign(dims->batch.begin(), dims->batch.end());
  cv.outputImage.assign(dims->outputImage.begin(), dims->outputImage.end());
  cv.outputChannel.assign(dims->outputChannel.begin(),
                          dims->outputChannel.end());
  cv.filterLoop.assign(dims->filterLoop.begin(), dims->filterLoop.end());
  cv.inputChannel.assign(dims->inputChannel.begin(), dims->inputChannel.end());
  cv.depth.assign(dims->depth.begin(), dims->depth.end());
  cv.strides.assign(dims->strides.begin(), dims->strides.end());
  cv.dilations.assign(dims->dilations.begin(), dims->dilations.end());
  cv.depthwise = !dims->depth.empty();
  return cv;
}

static FailureOr<ScalarKind> getArgKind(Type type, std::string &whyNot) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity()) {
    whyNot = "entry arguments must be statically shaped identity-layout "
             "memrefs";
    return failure();
  }
  FailureOr<ScalarKind> kind = getScalarKind(memref.getElementType());
  if (failed(kind))
    whyNot = "unsupported element type";
  return kind;
}

FailureOr<ProblemView> mlir::stark::analyzeCudaProblem(ModuleOp problem,
                                                       std::string &whyNot) {
  ProblemView view;
  if (auto attr = problem->getAttrOfType<DictionaryAttr>(kProblemAttrName))
    if (auto entry = attr.getAs<StringAttr>("entry"))
      view.entry = entry.getValue().str();
  auto func = problem.lookupSymbol<func::FuncOp>(view.entry);
  if (!func || func.isExternal()) {
    whyNot = llvm::formatv("no function @{0} with a body", view.entry);
    return failure();
  }
  for (Type t : func.getArgumentTypes()) {
    FailureOr<ScalarKind> kind = getArgKind(t, whyNot);
    if (failed(kind))
      return failure();
    view.argKinds.push_back(*kind);
    view.argShapes.push_back(llvm::to_vector(cast<MemRefType>(t).getShape()));
  }

  Operation *compute = nullptr;
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (matchPattern(&op, m_Constant()))
      continue;
    if (compute) {
      // A fused problem: only the normalisation templates know them.
      int64_t numOutputs = 0;
      if (auto attr = problem->getAttrOfType<DictionaryAttr>(kProblemAttrName))
        if (auto n = attr.getAs<IntegerAttr>("num_outputs"))
          numOutputs = n.getInt();
      if (numOutputs < 1 || numOutputs > int64_t(view.argKinds.size())) {
        whyNot = "the entry holds more than one op";
        return failure();
      }
      view.numOutputArgs = numOutputs;
      if (failed(analyzeNormProblem(func, view, whyNot)))
        return failure();
      return view;
    }
    compute = &op;
  }
  if (!compute) {
    whyNot = "the entry holds no op";
    return failure();
  }
  view.opName = compute->getName().getStringRef().str();
  Block &entryBlock = func.getBody().front();
  auto argNumberOf = [&](Value v) -> int64_t {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &entryBlock)
      return -1;
    return arg.getArgNumber();
  };

  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(compute)) {
    int64_t in = argNumberOf(softmax.getInput());
    int64_t out = argNumberOf(softmax.getOutput());
    // The kernel reads argument 0 and writes argument 1.
    if (in != 0 || out != 1 || view.argKinds.size() != 2) {
      whyNot = "softmax must read the entry's first argument and write its "
               "second";
      return failure();
    }
    view.isSoftmax = true;
    view.opClass = OpClass::Reduction;
    view.numOutputArgs = 1;
    SoftmaxView sv;
    sv.dim = int64_t(softmax.getDimension());
    ArrayRef<int64_t> shape = view.argShapes[in];
    if (view.argShapes[out] != view.argShapes[in] || sv.dim < 0 ||
        sv.dim >= int64_t(shape.size())) {
      whyNot = "softmax input and output shapes differ";
      return failure();
    }
    sv.length = shape[sv.dim];
    for (int64_t d = sv.dim + 1; d < int64_t(shape.size()); ++d)
      sv.inner *= shape[d];
    for (int64_t d = 0; d < int64_t(shape.size()); ++d)
      if (d != sv.dim)
        sv.rows *= shape[d];
    sv.inKind = view.argKinds[in];
    sv.outKind = view.argKinds[out];
    view.softmax = sv;
    return view;
  }

  auto op = dyn_cast<linalg::LinalgOp>(compute);
  if (!op) {
    whyNot = llvm::formatv("'{0}' is not a linalg op", view.opName);
    return failure();
  }
  if (!op.hasPureBufferSemantics()) {
    whyNot = "the linalg op does not work on memrefs";
    return failure();
  }
  view.opClass = classifyLinalgOp(op);
  view.numOutputArgs = op.getNumDpsInits();
  view.loopRanges = op.getStaticLoopRanges();
  if (llvm::any_of(view.loopRanges, ShapedType::isDynamic)) {
    whyNot = "dynamic loop range";
    return failure();
  }
  for (utils::IteratorType it : op.getIteratorTypesArray())
    view.reductionLoops.push_back(it == utils::IteratorType::reduction);

  for (OpOperand &operand : op->getOpOperands()) {
    OperandView ov;
    ov.isOutput = op.isDpsInit(&operand);
    Value v = operand.get();
    FailureOr<ScalarKind> kind = getScalarKind(getElementTypeOrSelf(v));
    if (failed(kind)) {
      whyNot = "unsupported element type";
      return failure();
    }
    ov.kind = *kind;
    if (auto shaped = dyn_cast<ShapedType>(v.getType())) {
      ov.argNumber = argNumberOf(v);
      if (ov.argNumber < 0) {
        whyNot = "a shaped operand is not an entry argument";
        return failure();
      }
      ov.shape = llvm::to_vector(shaped.getShape());
      FailureOr<LinearAccess> access =
          getLinearAccess(op.getMatchingIndexingMap(&operand), ov.shape);
      if (failed(access)) {
        whyNot = llvm::formatv("the indexing map of operand #{0} is not "
                               "linear in the loops",
                               operand.getOperandNumber());
        return failure();
      }
      ov.access = *access;
    } else {
      ov.access.coefficients.assign(view.loopRanges.size(), 0);
    }
    (ov.isOutput ? view.outputs : view.inputs).push_back(std::move(ov));
  }
  // Outputs must be entry arguments after the inputs (the calling
  // convention puts them last).
  if (view.numOutputArgs > view.argKinds.size()) {
    whyNot = "more outputs than arguments";
    return failure();
  }

  FailureOr<ScalarProgram> body = extractScalarProgram(op, view.whyNoBody);
  if (succeeded(body))
    view.body = std::move(*body);

  std::string ignored;
  if (FailureOr<ContractionView> cv = analyzeContraction(view, ignored);
      succeeded(cv))
    view.contraction = *cv;
  if (op.getNumReductionLoops() > 0)
    if (FailureOr<ReductionView> rv = analyzeReduction(view, ignored);
        succeeded(rv))
      view.reduction = *rv;
  if (view.opClass == OpClass::Convolution || view.opClass == OpClass::Pooling)
    if (FailureOr<ConvolutionView> cv = analyzeConvolution(op); succeeded(cv))
      view.convolution = *cv;
  return view;
}

//===----------------------------------------------------------------------===//
// Shared code generation
//===----------------------------------------------------------------------===//

std::string cudatpl::argName(int64_t argNumber) {
  return "arg" + std::to_string(argNumber);
}

std::string cudatpl::getCudaPrelude(const ProblemView &view) {
  std::string s;
  s += "// Generated by stark's CUDA templates.\n";
  s += "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n\n";
  (void)view;
  s += R"cuda(// Vector access of N elements of T as one load or store.
template <class T, int N> struct alignas(sizeof(T) * N) StarkVec { T v[N]; };

// Elements widen to their compute type (f16 and bf16 compute in float).
__device__ __forceinline__ float stark_widen(__half x) { return __half2float(x); }
__device__ __forceinline__ float stark_widen(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class T> __device__ __forceinline__ T stark_widen(T x) { return x; }

// Compute values narrow to their storage type, rounding to nearest.
template <class To> struct StarkCast {
  template <class From> static __device__ __forceinline__ To from(From x) { return static_cast<To>(x); }
};
template <> struct StarkCast<__half> {
  template <class From> static __device__ __forceinline__ __half from(From x) { return __float2half_rn(static_cast<float>(x)); }
};
template <> struct StarkCast<__nv_bfloat16> {
  template <class From> static __device__ __forceinline__ __nv_bfloat16 from(From x) { return __float2bfloat16_rn(static_cast<float>(x)); }
};
template <class To, class From> __device__ __forceinline__ To stark_cast(From x) { return StarkCast<To>::from(x); }

// arith.maximumf / minimumf propagate NaN.
__device__ __forceinline__ float stark_maximumf(float a, float b) { return (a != a || b != b) ? a + b : fmaxf(a, b); }
__device__ __forceinline__ float stark_minimumf(float a, float b) { return (a != a || b != b) ? a + b : fminf(a, b); }
__device__ __forceinline__ double stark_maximumf(double a, double b) { return (a != a || b != b) ? a + b : fmax(a, b); }
__device__ __forceinline__ double stark_minimumf(double a, double b) { return (a != a || b != b) ? a + b : fmin(a, b); }

)cuda";
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

SmallVector<unsigned> cudatpl::sortLoopsByStride(ArrayRef<unsigned> loops,
                                                 const LinearAccess &access) {
  SmallVector<unsigned> sorted(loops);
  llvm::stable_sort(sorted, [&](unsigned x, unsigned y) {
    return std::abs(access.coefficients[x]) > std::abs(access.coefficients[y]);
  });
  return sorted;
}

bool cudatpl::isDenseOver(const LinearAccess &access, ArrayRef<unsigned> loops,
                          ArrayRef<int64_t> ranges) {
  if (access.offset != 0)
    return false;
  int64_t expected = 1;
  for (unsigned d : llvm::reverse(loops)) {
    if (access.coefficients[d] != expected && ranges[d] != 1)
      return false;
    expected *= ranges[d];
  }
  for (auto [d, c] : llvm::enumerate(access.coefficients))
    if (c != 0 && !llvm::is_contained(loops, unsigned(d)))
      return false;
  return true;
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

int64_t cudatpl::productOver(ArrayRef<unsigned> loops,
                             ArrayRef<int64_t> ranges) {
  int64_t p = 1;
  for (unsigned d : loops)
    p *= ranges[d];
  return p;
}

int64_t cudatpl::ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

void cudatpl::setParam(CudaKernelPlan &plan, StringRef key, int64_t value) {
  plan.params[key.str()] = std::to_string(value);
}

std::string cudatpl::emitCombine(StringRef combiner, ScalarKind kind,
                                 StringRef a, StringRef b) {
  std::string x = a.str(), y = b.str();
  bool fp = isFloatKind(kind);
  bool dbl = kind == ScalarKind::F64;
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

std::string cudatpl::emitCombineIdentity(StringRef combiner, ScalarKind kind) {
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
  int64_t bits = getScalarKindBytes(kind) * 8;
  int64_t hi = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
  int64_t lo = -hi - 1;
  if (bits == 64)
    return max ? "(-9223372036854775807LL - 1)" : "9223372036854775807LL";
  return emitScalarLiteral(kind, 0.0, max ? lo : hi);
}

//===----------------------------------------------------------------------===//
// Families, parameters, candidates
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> mlir::stark::getCudaTemplateFamilies() {
  static const StringRef families[] = {
      "gemm",    "gemm_tc",   "elementwise", "reduce_row", "reduce_col",
      "softmax", "layernorm", "rmsnorm",     "direct"};
  return families;
}

LogicalResult mlir::stark::checkFamilyApplies(StringRef family,
                                              const ProblemView &view,
                                              std::string &whyNot) {
  if (family == "gemm")
    return checkGemmApplies(view, whyNot);
  if (family == "gemm_tc")
    return checkGemmTcApplies(view, /*allowTf32=*/true, whyNot);
  if (family == "elementwise")
    return checkElementwiseApplies(view, whyNot);
  if (family == "reduce_row" || family == "reduce_col")
    return checkReduceApplies(view, whyNot);
  if (family == "softmax")
    return checkSoftmaxApplies(view, whyNot);
  if (family == "layernorm" || family == "rmsnorm")
    return checkNormApplies(view, family == "rmsnorm", whyNot);
  if (family == "direct")
    return checkDirectApplies(view, whyNot);
  whyNot = llvm::formatv("unknown family '{0}' (known: {1})", family,
                         llvm::join(getCudaTemplateFamilies(), ", "));
  return failure();
}

SmallVector<std::string>
mlir::stark::getApplicableFamilies(const ProblemView &view, bool allowTf32) {
  SmallVector<std::string> order;
  std::string ignored;
  auto consider = [&](StringRef family) {
    bool applies = family == "gemm_tc"
                       ? succeeded(checkGemmTcApplies(view, allowTf32, ignored))
                       : succeeded(checkFamilyApplies(family, view, ignored));
    if (applies && !llvm::is_contained(order, family))
      order.push_back(family.str());
  };
  if (view.isSoftmax) {
    consider("softmax");
    return order;
  }
  if (view.norm) {
    consider(view.norm->rms ? "rmsnorm" : "layernorm");
    return order;
  }
  if (view.opClass == OpClass::Pooling ||
      (view.convolution && view.convolution->depthwise)) {
    // A window per output and no reuse across outputs: depthwise is a
    // contraction batched over channels with n = 1, where a GEMM tile would
    // be mostly waste.
    consider("direct");
    consider("reduce_col");
    return order;
  }
  if (view.contraction) {
    const ContractionView &c = *view.contraction;
    // Matrix-vector shapes are bandwidth-bound: a reduction per output
    // reads each matrix element once without wasting a tile.
    bool skinny = std::min(c.m, c.n) < 16;
    if (skinny) {
      consider(view.reduction && view.reduction->innerContiguous
                   ? "reduce_row"
                   : "reduce_col");
    }
    consider("gemm_tc");
    consider("gemm");
    if (!skinny) {
      consider("reduce_row");
      consider("reduce_col");
    }
  }
  if (view.reduction) {
    if (view.reduction->innerContiguous) {
      consider("reduce_row");
      consider("reduce_col");
    } else {
      consider("reduce_col");
      consider("reduce_row");
    }
  }
  consider("elementwise");
  consider("direct");
  return order;
}

static LogicalResult takeParams(const TemplateParams &given,
                                ArrayRef<std::pair<StringRef, int64_t *>> slots,
                                StringRef family, std::string &whyNot) {
  for (auto &[key, value] : given) {
    auto it =
        llvm::find_if(slots, [&](auto &slot) { return slot.first == key; });
    if (it == slots.end()) {
      SmallVector<StringRef> names;
      for (auto &slot : slots)
        names.push_back(slot.first);
      whyNot = llvm::formatv("family '{0}' has no parameter '{1}' (it has: "
                             "{2})",
                             family, key, llvm::join(names, ", "));
      return failure();
    }
    *it->second = value;
  }
  return success();
}

FailureOr<CudaKernelPlan>
mlir::stark::generateCudaKernel(StringRef family, const ProblemView &view,
                                const TemplateParams &params,
                                std::string &whyNot) {
  if (family == "gemm") {
    GemmParams p;
    int64_t db = p.doubleBuffer;
    if (failed(takeParams(params,
                          {{"bm", &p.bm},
                           {"bn", &p.bn},
                           {"bk", &p.bk},
                           {"tm", &p.tm},
                           {"tn", &p.tn},
                           {"double_buffer", &db},
                           {"group_m", &p.groupM},
                           {"min_blocks", &p.minBlocks}},
                          family, whyNot)))
      return failure();
    p.doubleBuffer = db != 0;
    return generateGemmKernel(view, p, whyNot);
  }
  if (family == "gemm_tc") {
    GemmTcParams p;
    int64_t tf32 = p.allowTf32;
    if (failed(takeParams(params,
                          {{"bm", &p.bm},
                           {"bn", &p.bn},
                           {"bk", &p.bk},
                           {"wm", &p.wm},
                           {"wn", &p.wn},
                           {"stages", &p.stages},
                           {"group_m", &p.groupM},
                           {"allow_tf32", &tf32}},
                          family, whyNot)))
      return failure();
    p.allowTf32 = tf32 != 0;
    return generateGemmTcKernel(view, p, whyNot);
  }
  if (family == "elementwise") {
    ElementwiseParams p;
    if (failed(takeParams(params,
                          {{"block", &p.block},
                           {"vec", &p.vec},
                           {"per_thread", &p.perThread}},
                          family, whyNot)))
      return failure();
    return generateElementwiseKernel(view, p, whyNot);
  }
  if (family == "reduce_row") {
    ReduceRowParams p;
    if (failed(takeParams(params,
                          {{"threads", &p.threads},
                           {"rows", &p.rows},
                           {"vec", &p.vec},
                           {"split", &p.split}},
                          family, whyNot)))
      return failure();
    return generateReduceRowKernel(view, p, whyNot);
  }
  if (family == "reduce_col") {
    ReduceColParams p;
    if (failed(takeParams(params,
                          {{"block_x", &p.blockX}, {"split_y", &p.splitY}},
                          family, whyNot)))
      return failure();
    return generateReduceColKernel(view, p, whyNot);
  }
  if (family == "softmax") {
    SoftmaxParams p;
    int64_t cache = p.cache;
    if (failed(takeParams(params,
                          {{"threads", &p.threads},
                           {"rows", &p.rows},
                           {"vec", &p.vec},
                           {"cache", &cache}},
                          family, whyNot)))
      return failure();
    p.cache = cache != 0;
    return generateSoftmaxKernel(view, p, whyNot);
  }
  if (family == "layernorm" || family == "rmsnorm") {
    std::string why;
    if (failed(checkNormApplies(view, family == "rmsnorm", why))) {
      whyNot = why;
      return failure();
    }
    NormParams p;
    int64_t cache = p.cache;
    if (failed(takeParams(params,
                          {{"threads", &p.threads},
                           {"rows", &p.rows},
                           {"vec", &p.vec},
                           {"cache", &cache}},
                          family, whyNot)))
      return failure();
    p.cache = cache != 0;
    return generateNormKernel(view, p, whyNot);
  }
  if (family == "direct") {
    DirectParams p;
    if (failed(takeParams(params, {{"block", &p.block}}, family, whyNot)))
      return failure();
    return generateDirectKernel(view, p, whyNot);
  }
  whyNot = llvm::formatv("unknown family '{0}' (known: {1})", family,
                         llvm::join(getCudaTemplateFamilies(), ", "));
  return failure();
}

std::vector<TemplateParams>
mlir::stark::enumerateParams(StringRef family, const ProblemView &view,
                             const HardwareProfile &profile,
                             const EnumerateOptions &options) {
  std::vector<TemplateParams> out;
  // Every kernel assumes 32-lane warps (shuffle widths, warp tiles).
  if (profile.warpSize > 0 && profile.warpSize != 32)
    return out;
  std::string ignored;
  if (family == "gemm_tc") {
    if (failed(checkGemmTcApplies(view, options.allowTf32, ignored)))
      return out;
  } else if (failed(checkFamilyApplies(family, view, ignored))) {
    return out;
  }
  if (family == "gemm")
    for (const GemmParams &p : enumerateGemm(view, profile))
      out.push_back({{"bm", p.bm},
                     {"bn", p.bn},
                     {"bk", p.bk},
                     {"tm", p.tm},
                     {"tn", p.tn},
                     {"double_buffer", p.doubleBuffer},
                     {"group_m", p.groupM},
                     {"min_blocks", p.minBlocks}});
  if (family == "gemm_tc")
    for (const GemmTcParams &p :
         enumerateGemmTc(view, profile, options.allowTf32))
      out.push_back({{"bm", p.bm},
                     {"bn", p.bn},
                     {"bk", p.bk},
                     {"wm", p.wm},
                     {"wn", p.wn},
                     {"stages", p.stages},
                     {"group_m", p.groupM},
                     {"allow_tf32", p.allowTf32}});
  if (family == "elementwise")
    for (const ElementwiseParams &p : enumerateElementwise(view, profile))
      out.push_back(
          {{"block", p.block}, {"vec", p.vec}, {"per_thread", p.perThread}});
  if (family == "reduce_row")
    for (const ReduceRowParams &p : enumerateReduceRow(view, profile))
      out.push_back({{"threads", p.threads},
                     {"rows", p.rows},
                     {"vec", p.vec},
                     {"split", p.split}});
  if (family == "reduce_col")
    for (const ReduceColParams &p : enumerateReduceCol(view, profile))
      out.push_back({{"block_x", p.blockX}, {"split_y", p.splitY}});
  if (family == "softmax")
    for (const SoftmaxParams &p : enumerateSoftmax(view, profile))
      out.push_back({{"threads", p.threads},
                     {"rows", p.rows},
                     {"vec", p.vec},
                     {"cache", p.cache}});
  if (family == "layernorm" || family == "rmsnorm")
    for (const NormParams &p : enumerateNorm(view, profile))
      out.push_back({{"threads", p.threads},
                     {"rows", p.rows},
                     {"vec", p.vec},
                     {"cache", p.cache}});
  if (family == "direct")
    for (const DirectParams &p : enumerateDirect(view, profile))
      out.push_back({{"block", p.block}});
  if (options.limit > 0 && int64_t(out.size()) > options.limit)
    out.resize(options.limit);
  return out;
}

FailureOr<TemplateParams> mlir::stark::parseTemplateParams(StringRef text,
                                                           std::string &error) {
  TemplateParams params;
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    value = value.trim();
    int64_t v;
    if (key.empty() || value.getAsInteger(10, v)) {
      error = llvm::formatv("cannot parse parameter '{0}' (expected "
                            "name=integer)",
                            item.trim());
      return failure();
    }
    params[key.lower()] = v;
  }
  return params;
}

std::string mlir::stark::formatTemplateParams(const TemplateParams &params) {
  std::string s;
  for (auto &[key, value] : params) {
    if (!s.empty())
      s += ",";
    s += key + "=" + std::to_string(value);
  }
  return s;
}

FailureOr<OwningOpRef<ModuleOp>> mlir::stark::buildCudaCandidateModule(
    ModuleOp problem, const CudaKernelPlan &plan, std::string &error) {
  std::string entry = "kernel";
  if (auto attr = problem->getAttrOfType<DictionaryAttr>(kProblemAttrName))
    if (auto name = attr.getAs<StringAttr>("entry"))
      entry = name.getValue().str();
  OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
  auto func = candidate->lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = llvm::formatv("no function @{0} with a body", entry);
    return failure();
  }
  if (plan.launches.empty() || plan.source.empty()) {
    error = "the plan has no source or no launch";
    return failure();
  }
  // The body is replaced by the kernels: keep only the terminator. Users
  // go before their definitions.
  Block &body = func.getBody().front();
  SmallVector<Operation *> doomed;
  for (Operation &op : body.without_terminator())
    doomed.push_back(&op);
  for (Operation *op : llvm::reverse(doomed))
    op->erase();

  Builder b(candidate->getContext());
  SmallVector<Attribute> launches;
  for (const CudaKernelPlan::Launch &l : plan.launches)
    launches.push_back(b.getDictionaryAttr({
        b.getNamedAttr("kernel", b.getStringAttr(l.kernel)),
        b.getNamedAttr("grid", b.getDenseI64ArrayAttr(l.grid)),
        b.getNamedAttr("block", b.getDenseI64ArrayAttr(l.block)),
        b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(l.sharedBytes)),
    }));
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("source", b.getStringAttr(plan.source)),
      b.getNamedAttr("launches", b.getArrayAttr(launches))};
  if (!plan.options.empty()) {
    SmallVector<Attribute> options;
    for (const std::string &o : plan.options)
      options.push_back(b.getStringAttr(o));
    fields.push_back(b.getNamedAttr("options", b.getArrayAttr(options)));
  }
  func->setAttr("stark.cuda", b.getDictionaryAttr(fields));
  // Provenance for reports and tuning records.
  SmallVector<NamedAttribute> params;
  for (auto &[key, value] : plan.params)
    params.push_back(b.getNamedAttr(key, b.getStringAttr(value)));
  func->setAttr("stark.template",
                b.getDictionaryAttr(
                    {b.getNamedAttr("family", b.getStringAttr(plan.family)),
                     b.getNamedAttr("params", b.getDictionaryAttr(params))}));
  return candidate;
}
