//===- CpuStrategies.cpp - Transform-dialect schedules for the host -------===//

#include "stark/Agent/CpuStrategies.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/TransformOps/FuncTransformOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

std::map<std::string, std::string> CpuSchedule::toParams() const {
  auto list = [](ArrayRef<int64_t> v) {
    return "[" +
           llvm::join(
               llvm::map_range(v, [](int64_t x) { return std::to_string(x); }),
               ",") +
           "]";
  };
  return {{"cache_tiles", list(cacheTiles)},
          {"register_tiles", list(registerTiles)},
          {"contraction_lowering", contractionLowering},
          {"reduction_lowering", reductionLowering}};
}

std::string CpuSchedule::describe() const {
  std::map<std::string, std::string> p = toParams();
  return llvm::formatv("cache tiles {0}, vector tiles {1}", p["cache_tiles"],
                       p["register_tiles"])
      .str();
}

void mlir::stark::registerCpuStrategyDialects(DialectRegistry &registry) {
  registry
      .insert<affine::AffineDialect, arith::ArithDialect, func::FuncDialect,
              linalg::LinalgDialect, math::MathDialect, memref::MemRefDialect,
              scf::SCFDialect, transform::TransformDialect, ub::UBDialect,
              vector::VectorDialect>();
  linalg::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  memref::registerTransformDialectExtension(registry);
  func::registerTransformDialectExtension(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
}

/// The single linalg op of a problem module.
static linalg::LinalgOp findProblemOp(ModuleOp problem) {
  linalg::LinalgOp found;
  int count = 0;
  problem->walk([&](linalg::LinalgOp op) {
    found = op;
    ++count;
  });
  return count == 1 ? found : linalg::LinalgOp();
}

/// The largest tile <= `want` that divides `extent` (tails would need
/// masking, which these schedules do not do), or the whole extent when it
/// is small.
static int64_t pickTile(int64_t extent, int64_t want) {
  if (extent <= want)
    return extent;
  for (int64_t t = want; t >= 1; --t)
    if (extent % t == 0)
      return t;
  return 1;
}

std::string mlir::stark::renderCpuTransformScript(const CpuSchedule &s,
                                                  unsigned numLoops) {
  std::string script;
  llvm::raw_string_ostream os(script);
  auto handles = [&](unsigned n) {
    std::string types = "!transform.any_op";
    for (unsigned i = 0; i < n; ++i)
      types += ", !transform.any_op";
    return types;
  };
  auto tileList = [](ArrayRef<int64_t> v) {
    return "[" +
           llvm::join(
               llvm::map_range(v, [](int64_t x) { return std::to_string(x); }),
               ", ") +
           "]";
  };
  auto countNonZero = [](ArrayRef<int64_t> v) {
    return unsigned(llvm::count_if(v, [](int64_t x) { return x != 0; }));
  };
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(%root: "
        "!transform.any_op {transform.readonly}) {\n"
     << "    %op = transform.structured.match interface{LinalgOp} in %root "
        ": (!transform.any_op) -> !transform.any_op\n";
  std::string current = "%op";
  unsigned outer = countNonZero(s.cacheTiles);
  if (outer) {
    os << "    %cache, %cl:" << outer
       << " = transform.structured.tile_using_for %op tile_sizes "
       << tileList(s.cacheTiles) << " : (!transform.any_op) -> ("
       << handles(outer) << ")\n";
    current = "%cache";
  }
  unsigned inner = countNonZero(s.registerTiles);
  if (inner) {
    os << "    %reg, %rl:" << inner << " = transform.structured.tile_using_for "
       << current << " tile_sizes " << tileList(s.registerTiles)
       << " : (!transform.any_op) -> (" << handles(inner) << ")\n";
    current = "%reg";
  }
  (void)numLoops;
  os << "    transform.structured.vectorize " << current
     << " : !transform.any_op\n"
     << "    %f = transform.structured.match ops{[\"func.func\"]} in %root "
        ": (!transform.any_op) -> !transform.any_op\n"
     << "    transform.apply_patterns to %f {\n"
     << "      transform.apply_patterns.vector.lower_contraction "
        "lowering_strategy = \""
     << s.contractionLowering << "\"\n"
     << "      transform.apply_patterns.vector.lower_multi_reduction "
        "lowering_strategy = \""
     << s.reductionLowering << "\"\n"
     << "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
     << "      transform.apply_patterns.vector.lower_transfer "
        "max_transfer_rank = 1\n"
     << "      transform.apply_patterns.vector.lower_outerproduct\n"
     << "      transform.apply_patterns.canonicalization\n"
     << "    } : !transform.any_op\n"
     << "    %h = transform.structured.hoist_redundant_vector_transfers %f "
        ": (!transform.any_op) -> !transform.any_op\n"
     << "    transform.yield\n"
     << "  }\n"
     << "}\n";
  return script;
}

std::vector<CpuSchedule> mlir::stark::enumerateCpuSchedules(
    ModuleOp problem, const HardwareProfile &host, std::string &whyNot) {
  std::vector<CpuSchedule> schedules;
  linalg::LinalgOp op = findProblemOp(problem);
  if (!op) {
    whyNot = "the problem must hold exactly one linalg op";
    return schedules;
  }
  if (op.hasDynamicShape()) {
    whyNot = "dynamic shapes";
    return schedules;
  }
  if (!op.hasOnlyProjectedPermutations()) {
    whyNot = "indexing maps that are not projected permutations "
             "(convolution or pooling windows) are not vectorised on the "
             "host yet";
    return schedules;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned numLoops = ranges.size();
  if (numLoops == 0) {
    whyNot = "a zero-dimensional op has nothing to tile";
    return schedules;
  }
  Type elementType = getElementTypeOrSelf(op->getOperand(0).getType());
  int64_t elementBits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 32;
  int64_t lanes = std::max<int64_t>(1, std::max<int64_t>(host.simdBits, 128) /
                                           std::max<int64_t>(elementBits, 8));

  auto addSchedule = [&](CpuSchedule s) {
    for (const CpuSchedule &existing : schedules)
      if (existing.cacheTiles == s.cacheTiles &&
          existing.registerTiles == s.registerTiles &&
          existing.contractionLowering == s.contractionLowering &&
          existing.reductionLowering == s.reductionLowering)
        return;
    schedules.push_back(s);
  };

  FailureOr<linalg::ContractionDimensions> contraction =
      linalg::inferContractionDims(op);
  if (linalg::isaContractionOpInterface(op) && succeeded(contraction) &&
      contraction->m.size() == 1 && contraction->n.size() == 1 &&
      contraction->k.size() == 1) {
    unsigned m = contraction->m[0], n = contraction->n[0],
             k = contraction->k[0];
    // Register tile mr x nr (nr a multiple of the vector width), cache
    // tiles sized so the B panel (kc x nc) and A block stay in cache.
    for (int64_t mr : {8, 4})
      for (int64_t nrVectors : {2, 1})
        for (auto [mc, nc, kc] :
             {std::tuple<int64_t, int64_t, int64_t>{64, 256, 128},
              {128, 128, 256},
              {32, 512, 64}}) {
          CpuSchedule s;
          s.cacheTiles.assign(numLoops, 0);
          s.registerTiles.assign(numLoops, 0);
          for (unsigned b : contraction->batch) {
            s.cacheTiles[b] = 1;
            s.registerTiles[b] = 1;
          }
          s.cacheTiles[m] = pickTile(ranges[m], mc);
          s.cacheTiles[n] = pickTile(ranges[n], nc);
          s.cacheTiles[k] = pickTile(ranges[k], kc);
          s.registerTiles[m] = pickTile(s.cacheTiles[m], mr);
          s.registerTiles[n] = pickTile(s.cacheTiles[n], lanes * nrVectors);
          s.registerTiles[k] = 1;
          addSchedule(s);
        }
    return schedules;
  }

  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool hasReduction = llvm::any_of(iterators, [](utils::IteratorType t) {
    return t == utils::IteratorType::reduction;
  });
  // Innermost loop vectorised; outer parallel loops blocked by `rows` so
  // several rows share the vector work (innerparallel reductions).
  for (int64_t widthVectors : {4, 2, 8, 1})
    for (int64_t rows : {1, 4, 8}) {
      CpuSchedule s;
      s.cacheTiles.assign(numLoops, 0);
      s.registerTiles.assign(numLoops, 1);
      unsigned innermost = numLoops - 1;
      s.registerTiles[innermost] =
          pickTile(ranges[innermost], lanes * widthVectors);
      if (numLoops >= 2) {
        // The next loop out, parallel or not, takes the row blocking.
        s.registerTiles[innermost - 1] = pickTile(ranges[innermost - 1], rows);
      }
      for (unsigned i = 0; i < numLoops; ++i)
        if (ranges[i] == 1)
          s.registerTiles[i] = 1;
      s.reductionLowering =
          hasReduction && rows == 1 ? "innerreduction" : "innerparallel";
      addSchedule(s);
    }
  return schedules;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::applyCpuSchedule(ModuleOp problem, const CpuSchedule &schedule,
                              std::string &error) {
  MLIRContext *ctx = problem->getContext();
  linalg::LinalgOp op = findProblemOp(problem);
  if (!op) {
    error = "the problem must hold exactly one linalg op";
    return failure();
  }
  unsigned numLoops = op.getNumLoops();
  if (schedule.cacheTiles.size() != numLoops ||
      schedule.registerTiles.size() != numLoops) {
    error = llvm::formatv("the schedule has tile sizes for {0} loops, the "
                          "op has {1}",
                          schedule.registerTiles.size(), numLoops)
                .str();
    return failure();
  }

  // Collect diagnostics instead of printing them: a schedule that does not
  // apply is an ordinary outcome of the search.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += d.str() + "\n";
    return success();
  });

  OwningOpRef<ModuleOp> script = parseSourceString<ModuleOp>(
      renderCpuTransformScript(schedule, numLoops), ctx);
  if (!script) {
    error =
        "internal error: the transform script does not parse:\n" + diagnostics;
    return failure();
  }
  OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
  auto entry =
      script->lookupSymbol<transform::TransformOpInterface>("__transform_main");
  if (failed(transform::applyTransformNamedSequence(
          *candidate, entry, *script, transform::TransformOptions()))) {
    error = "the schedule does not apply: " + diagnostics;
    return failure();
  }
  return candidate;
}

namespace {
/// Every enumerated schedule is one point of family "cpu-tile-vectorize".
class CpuCandidateSpace : public CandidateSpace {
public:
  CpuCandidateSpace(ModuleOp problem, std::vector<CpuSchedule> schedules)
      : problem(problem), schedules(std::move(schedules)) {
    for (const CpuSchedule &s : this->schedules)
      points.push_back({"cpu-tile-vectorize", s.toParams(), s.describe()});
  }

  const std::vector<StrategyPoint> &getPoints() const override {
    return points;
  }

  FailureOr<std::string> build(const StrategyPoint &point,
                               std::string &error) override {
    for (size_t i = 0; i < points.size(); ++i) {
      if (points[i].key() != point.key())
        continue;
      FailureOr<OwningOpRef<ModuleOp>> candidate =
          applyCpuSchedule(problem, schedules[i], error);
      if (failed(candidate))
        return failure();
      (*candidate)->getOperation()->removeAttr("stark.problem");
      std::string text;
      llvm::raw_string_ostream os(text);
      (*candidate)->print(os);
      return text;
    }
    error = "not a point of this space: " + point.key();
    return failure();
  }

private:
  ModuleOp problem;
  std::vector<CpuSchedule> schedules;
  std::vector<StrategyPoint> points;
};
} // namespace

std::unique_ptr<CandidateSpace> mlir::stark::createCpuCandidateSpace(
    ModuleOp problem, const HardwareProfile &host, std::string &whyNot) {
  std::vector<CpuSchedule> schedules =
      enumerateCpuSchedules(problem, host, whyNot);
  if (schedules.empty())
    return nullptr;
  return std::make_unique<CpuCandidateSpace>(problem, std::move(schedules));
}
