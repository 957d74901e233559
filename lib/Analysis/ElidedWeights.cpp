//===- ElidedWeights.cpp - Weights whose data is not in the module --------===//

#include "stark/Analysis/ElidedWeights.h"
#include "stark/Dialect/StarkDialect.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::stark;

bool MissingWeight::isElided() const {
  return attr.getRawHandle().getKey() == kElidedResourceName;
}

std::vector<MissingWeight> mlir::stark::findMissingWeights(Operation *root) {
  std::vector<MissingWeight> weights;
  int64_t elidedWithoutSymbol = 0;
  root->walk([&](Operation *op) {
    llvm::SmallPtrSet<Attribute, 2> seen;
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      DenseResourceElementsHandle handle = attr.getRawHandle();
      if (handle.getBlob() || !seen.insert(attr).second)
        return;
      MissingWeight weight{op, attr, handle.getKey().str()};
      if (weight.isElided()) {
        if (auto symbol = dyn_cast<SymbolOpInterface>(op))
          weight.name = ("@" + symbol.getName()).str();
        else
          weight.name = llvm::formatv("{0}#{1}", kElidedResourceName,
                                      elidedWithoutSymbol++)
                            .str();
      }
      weights.push_back(std::move(weight));
    });
  });
  return weights;
}

/// Says what `w` is, why it has no data and how to opt in.
static void describe(InFlightDiagnostic &diag, const MissingWeight &w,
                     int64_t others, StringRef optIn) {
  diag << "weight '" << w.name << "' of type " << w.attr.getType()
       << " has no data: ";
  if (w.isElided())
    diag << "the exporter elided it (dense_resource<" << kElidedResourceName
         << ">)";
  else
    diag << "its blob '" << w.attr.getRawHandle().getKey()
         << "' is not in the module's dialect_resources";
  if (others > 0)
    diag << ", nor have " << others << " other weight(s)";
  diag << "; the program cannot run without its weights (" << optIn
       << " replaces each missing weight with deterministic weights of its "
          "type, for timing and verification only)";
}

InFlightDiagnostic mlir::stark::emitMissingWeightError(const MissingWeight &w,
                                                       StringRef optIn,
                                                       int64_t others) {
  InFlightDiagnostic diag = w.holder->emitError();
  describe(diag, w, others, optIn);
  return diag;
}

InFlightDiagnostic
mlir::stark::emitMissingWeightsWarning(ArrayRef<MissingWeight> weights,
                                       StringRef optIn) {
  InFlightDiagnostic diag = weights.front().holder->emitWarning();
  describe(diag, weights.front(), int64_t(weights.size()) - 1, optIn);
  return diag;
}

namespace {

/// Knuth's MMIX LCG, seeded by a 64-bit FNV-1a hash of the weight's name.
class WeightStream {
public:
  explicit WeightStream(StringRef key) {
    state = 0xcbf29ce484222325ULL;
    for (char c : key) {
      state ^= uint8_t(c);
      state *= 0x100000001b3ULL;
    }
  }
  /// Uniform in [0, 1), 24 bits.
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 40) / double(1 << 24);
  }

private:
  uint64_t state;
};

/// The bytes of `count` elements of `type` drawn from `key`'s stream; fails
/// on an element type without a fixed-width encoding.
FailureOr<std::vector<char>> synthesizeData(ShapedType type, StringRef key) {
  Type element = type.getElementType();
  int64_t count = type.getNumElements();
  if (element.isIndex() || isa<IntegerType>(element)) {
    unsigned bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
    return std::vector<char>(count * llvm::divideCeil(bits, 8), 0);
  }
  auto floatType = dyn_cast<FloatType>(element);
  if (!floatType)
    return failure();
  double low = 0.5, high = 1.5;
  if (type.getRank() >= 2 && type.getDimSize(0) > 0) {
    double bound =
        1.0 /
        std::sqrt(double(std::max<int64_t>(1, count / type.getDimSize(0))));
    low = -bound;
    high = bound;
  }
  WeightStream stream(key);
  unsigned bits = floatType.getWidth();
  int64_t bytes = llvm::divideCeil(bits, 8);
  std::vector<char> data(count * bytes);
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  for (int64_t i = 0; i < count; ++i) {
    double v = low + (high - low) * stream.next();
    if (floatType.isF32()) {
      float f = float(v);
      std::memcpy(data.data() + i * bytes, &f, sizeof(f));
    } else if (floatType.isF64()) {
      std::memcpy(data.data() + i * bytes, &v, sizeof(v));
    } else {
      bool lost;
      llvm::APFloat value(v);
      value.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
      llvm::APInt raw = value.bitcastToAPInt();
      for (int64_t b = 0; b < bytes; ++b)
        data[i * bytes + b] = char(raw.extractBitsAsZExtValue(
            std::min<unsigned>(8, bits - 8 * b), 8 * b));
    }
  }
  return data;
}

/// A resource name for `name`'s synthesised blob: letters, digits, `_`.
std::string blobName(StringRef name) {
  std::string out = "stark_synthesized_";
  for (char c : name)
    out += llvm::isAlnum(c) ? c : '_';
  return out;
}

} // namespace

FailureOr<std::vector<MissingWeight>>
mlir::stark::synthesizeMissingWeights(ModuleOp module) {
  std::vector<MissingWeight> weights = findMissingWeights(module);
  if (weights.empty())
    return weights;
  // One replacement per holder: the same elided attribute held by two ops
  // (every `__elided__` weight of one type is one attribute) gets data of
  // its own in each.
  llvm::DenseMap<Operation *, llvm::DenseMap<Attribute, Attribute>> byHolder;
  for (const MissingWeight &w : weights) {
    FailureOr<std::vector<char>> data =
        synthesizeData(w.attr.getType(), w.name);
    if (failed(data))
      return w.holder->emitError()
             << "cannot synthesize weight '" << w.name << "': no synthetic "
             << "data for element type " << w.attr.getType().getElementType();
    Type element = w.attr.getType().getElementType();
    int64_t align =
        element.isIntOrIndexOrFloat() && !element.isIndex()
            ? std::max<int64_t>(
                  1, llvm::divideCeil(element.getIntOrFloatBitWidth(), 8))
            : 8;
    // The same weight synthesised again in this context (the program and
    // what stark-opt made of it, both evaluated) is the same attribute.
    std::string key = blobName(w.name);
    DialectResourceBlobManager::BlobEntry *entry =
        DenseResourceElementsHandle::getManagerInterface(module.getContext())
            .getBlobManager()
            .lookup(key);
    if (entry && entry->getBlob() &&
        entry->getBlob()->getData() == ArrayRef<char>(*data)) {
      byHolder[w.holder][w.attr] = DenseResourceElementsAttr::get(
          w.attr.getType(),
          DenseResourceElementsHandle(
              entry, module.getContext()->getOrLoadDialect<BuiltinDialect>()));
      continue;
    }
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(*data), llvm::PowerOf2Ceil(align),
        /*dataIsMutable=*/false);
    byHolder[w.holder][w.attr] =
        DenseResourceElementsAttr::get(w.attr.getType(), key, std::move(blob));
  }
  for (auto &[holder, replacements] : byHolder) {
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](DenseResourceElementsAttr attr) -> std::optional<Attribute> {
          auto it = replacements.find(attr);
          if (it == replacements.end())
            return std::nullopt;
          return it->second;
        });
    replacer.replaceElementsIn(holder, /*replaceAttrs=*/true,
                               /*replaceLocs=*/false, /*replaceTypes=*/false);
  }
  Builder b(module.getContext());
  SmallVector<Attribute> names;
  if (auto old = module->getAttrOfType<ArrayAttr>(kSynthesizedWeightsAttrName))
    llvm::append_range(names, old.getValue());
  for (const MissingWeight &w : weights)
    names.push_back(b.getStringAttr(w.name));
  module->setAttr(kSynthesizedWeightsAttrName, b.getArrayAttr(names));
  return weights;
}

std::vector<std::string> mlir::stark::getSynthesizedWeights(ModuleOp module) {
  std::vector<std::string> names;
  if (auto attr = module->getAttrOfType<ArrayAttr>(kSynthesizedWeightsAttrName))
    for (Attribute name : attr)
      if (auto s = dyn_cast<StringAttr>(name))
        names.push_back(s.getValue().str());
  return names;
}
