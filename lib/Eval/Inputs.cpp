//===- Inputs.cpp - Deterministic kernel inputs and output prefill --------===//

#include "stark/Eval/Inputs.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

#include "stark/Eval/EvalEnums.cpp.inc"

ArrayRef<Distribution> mlir::stark::getAllDistributions() {
  static const Distribution all[] = {
      Distribution::Uniform, Distribution::Normal, Distribution::Large,
      Distribution::Tiny, Distribution::Negative};
  return all;
}

double mlir::stark::getDistributionScale(Distribution d, ElementKind kind) {
  switch (d) {
  case Distribution::Large:
    if (!isFloatKind(kind))
      return kind == ElementKind::I8 ? 100 : 1000;
    return kind == ElementKind::F16 ? 1e2 : 1e3;
  case Distribution::Tiny:
    return isFloatKind(kind) ? 1e-3 : 1;
  default:
    return 1;
  }
}

uint64_t mlir::stark::mixSeed(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void mlir::stark::forEachChunk(int64_t n,
                               llvm::function_ref<void(int64_t, int64_t)> fn) {
  int64_t chunks = llvm::divideCeil(std::max<int64_t>(n, 0), kChunkElements);
  if (chunks <= 1) {
    if (n > 0)
      fn(0, n);
    return;
  }
  llvm::parallelFor(0, size_t(chunks), [&](size_t c) {
    int64_t begin = int64_t(c) * kChunkElements;
    fn(begin, std::min(n, begin + kChunkElements));
  });
}

namespace {
/// splitmix64: tiny, fast, and identical on every platform. Its state after
/// k draws is seed + k * gamma, so any point of the stream can be reached
/// directly: that is what lets the generator fill chunks in parallel.
class Rng {
public:
  static constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ULL;
  explicit Rng(uint64_t seed, uint64_t skipDraws = 0)
      : state(seed + skipDraws * kGamma) {}
  uint64_t next() {
    uint64_t z = (state += kGamma);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  /// -1 or 1, without a branch: the random sign of every Large and Tiny
  /// element mispredicted half the time and took most of their draw.
  double sign() { return 1.0 - 2.0 * double(next() >> 63); }
  double normal() {
    if (haveSpare) {
      haveSpare = false;
      return spare;
    }
    double u1 = unit();
    double u2 = unit();
    // 1 - u1 is in (0, 1], so the log is finite.
    double r = std::sqrt(-2.0 * std::log(1.0 - u1));
    double theta = 2.0 * M_PI * u2;
    spare = r * std::sin(theta);
    haveSpare = true;
    return r * std::cos(theta);
  }
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + int64_t(next() % uint64_t(hi - lo + 1));
  }

private:
  uint64_t state;
  double spare = 0;
  bool haveSpare = false;
};
} // namespace

static inline double drawFloat(Rng &rng, Distribution d, ElementKind kind) {
  double scale = getDistributionScale(d, kind);
  switch (d) {
  case Distribution::Uniform:
    return rng.uniform(-1, 1);
  case Distribution::Normal:
    return rng.normal();
  case Distribution::Large:
  case Distribution::Tiny:
    return rng.sign() * rng.uniform(0.5, 1) * scale;
  case Distribution::Negative:
    return -rng.uniform(0.05, 1);
  case Distribution::Special:
    return rng.uniform(-2, 2);
  }
  return 0;
}

/// f32 elements [begin, end) of `out` drawn from `rng` as drawFloat draws
/// them, with the distribution known at compile time: the draw is inlined
/// and its switch folded away (the dispatch per element cost more than the
/// draw itself).
template <Distribution D>
static void fillFloats(float *out, int64_t begin, int64_t end, Rng &rng,
                       ElementKind kind) {
  for (int64_t i = begin; i < end; ++i)
    out[i] = float(drawFloat(rng, D, kind));
}

/// The smallest positive denormal of a float kind.
static double getSmallestDenormal(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return 0x1.0p-24;
  case ElementKind::F64:
    return 0x1.0p-1074;
  default: // f32 and bf16 share the exponent range
    return kind == ElementKind::BF16 ? 0x1.0p-133 : 0x1.0p-149;
  }
}

namespace {
/// What part of a Special trial's values an argument holds: the primary
/// argument's (the problem's first float input) or those of secondary
/// argument `index` of `count`.
struct SpecialRole {
  int index = -1, count = 0;
  bool isPrimary() const { return index < 0; }
};
} // namespace

/// Whether element `i` (row, column) of a secondary argument of a Special
/// trial may hold a special value: in columns 3 mod 4, at one row of each
/// slice of its second-to-last dimension, a different one for each column.
/// One special value in a column of V or of a matmul's B reaches the result
/// on its own: with one at every fourth row (as a vector still has),
/// infinities of both signs made whole columns of the result NaN and hid a
/// kernel that turned an inf into NaN (a bf16 attention kernel's split of
/// P; its bench caught it, the trial did not). Several secondary arguments
/// with as many slices (their leading dimensions) take turns by slice: in
/// an attention, a NaN or inf in a row of K makes every row of its head
/// non-finite, so V's special values count only in heads where K has none.
static bool maySpecialSecondary(const ArgSpec &spec, int64_t i, int64_t row,
                                int64_t column, SpecialRole role) {
  if (column % 4 != 3)
    return false;
  if (spec.shape.size() < 2)
    return row % 4 == 3;
  int64_t rows = std::max<int64_t>(spec.shape[spec.shape.size() - 2], 1);
  int64_t sliceElements = rows * std::max<int64_t>(spec.shape.back(), 1);
  int64_t slices = spec.numElements() / sliceElements;
  if (role.count > 1 && slices >= role.count &&
      (i / sliceElements) % role.count != role.index)
    return false;
  return row % rows == (7 * (column / 4) + 3) % rows;
}

/// Element `i` of a Special buffer: a plain value, a special one, or a
/// mask, by its row (see Inputs.h). Two draws per element. A secondary
/// argument gets special values only where maySpecialSecondary says, and no
/// masks: a -inf row of the second operand of a matmul would make the whole
/// product non-finite.
static double drawSpecial(Rng &rng, const ArgSpec &spec, int64_t i,
                          SpecialRole role) {
  uint64_t category = rng.next() % 11;
  double value = rng.uniform(-2, 2);
  int64_t rowLength = spec.shape.size() >= 2 ? spec.shape.back() : 16;
  rowLength = std::max<int64_t>(rowLength, 1);
  int64_t row = i / rowLength, column = i % rowLength;
  double inf = std::numeric_limits<double>::infinity();
  bool primary = role.isPrimary();
  if (primary && row % 8 == 2)
    return -inf;
  if (primary && row % 8 == 5 && column > row % rowLength)
    return -inf;
  if (primary ? row % 4 != 3 : !maySpecialSecondary(spec, i, row, column, role))
    return value;
  switch (category) {
  case 0:
    return std::numeric_limits<double>::quiet_NaN();
  case 1:
    return inf;
  case 2:
    return -inf;
  case 3:
    return -0.0;
  case 4:
    return (value < 0 ? -1 : 1) * getSmallestDenormal(spec.kind) *
           std::floor(1 + std::fabs(value) * 64);
  default:
    return value;
  }
}

static int64_t drawInteger(Rng &rng, Distribution d, ElementKind kind) {
  if (kind == ElementKind::I1)
    return int64_t(rng.next() >> 63);
  int64_t small = kind == ElementKind::I8 ? 4 : 8;
  switch (d) {
  case Distribution::Uniform:
  case Distribution::Normal:
    return rng.integer(-small, small);
  case Distribution::Large: {
    int64_t big = int64_t(getDistributionScale(d, kind));
    return rng.integer(-big, big);
  }
  case Distribution::Tiny:
    return rng.integer(-1, 1);
  case Distribution::Negative:
    return rng.integer(-small, -1);
  case Distribution::Special:
    return rng.integer(-small, small);
  }
  return 0;
}

/// How many draws of the stream one element takes: one, except for the
/// Large and Tiny floats (a sign and a magnitude). Normal floats take two
/// per pair of elements (Box-Muller gives a cosine and a sine), so a chunk
/// that starts at an even element starts at a fresh pair.
static uint64_t getDrawsPerElement(Distribution d, bool isFloat) {
  return isFloat && (d == Distribution::Large || d == Distribution::Tiny ||
                     d == Distribution::Special)
             ? 2
             : 1;
}

/// fillRandomRange, with `role` saying whether a Special buffer is the
/// problem's first float input (the others get fewer special values).
static void fillRange(HostBuffer &buffer, Distribution d, uint64_t seed,
                      int64_t begin, int64_t end, SpecialRole role) {
  ElementKind kind = buffer.spec.kind;
  bool isFloat = isFloatKind(kind);
  assert((begin % 2 == 0 || begin == end) &&
         "a range starts at a pair of normals");
  Rng rng(seed, uint64_t(begin) * getDrawsPerElement(d, isFloat));
  if (kind == ElementKind::F32 && d != Distribution::Special) {
    // The common case without the per-element dispatch: the same draws,
    // rounded to float as setFromDouble does, in a loop per distribution.
    float *out = reinterpret_cast<float *>(buffer.bytes.data());
    switch (d) {
    case Distribution::Uniform:
      return fillFloats<Distribution::Uniform>(out, begin, end, rng, kind);
    case Distribution::Normal:
      return fillFloats<Distribution::Normal>(out, begin, end, rng, kind);
    case Distribution::Large:
      return fillFloats<Distribution::Large>(out, begin, end, rng, kind);
    case Distribution::Tiny:
      return fillFloats<Distribution::Tiny>(out, begin, end, rng, kind);
    case Distribution::Negative:
      return fillFloats<Distribution::Negative>(out, begin, end, rng, kind);
    case Distribution::Special:
      break;
    }
  }
  for (int64_t i = begin; i < end; ++i) {
    if (isFloat && d == Distribution::Special)
      buffer.setFromDouble(i, drawSpecial(rng, buffer.spec, i, role));
    else
      buffer.setFromDouble(i, isFloat ? drawFloat(rng, d, kind)
                                      : double(drawInteger(rng, d, kind)));
  }
}

void mlir::stark::fillRandomRange(HostBuffer &buffer, Distribution d,
                                  uint64_t seed, int64_t begin, int64_t end) {
  fillRange(buffer, d, seed, begin, end, SpecialRole());
}

static void fill(HostBuffer &buffer, Distribution d, uint64_t seed,
                 SpecialRole role) {
  forEachChunk(buffer.spec.numElements(), [&](int64_t begin, int64_t end) {
    fillRange(buffer, d, seed, begin, end, role);
  });
}

void mlir::stark::fillRandom(HostBuffer &buffer, Distribution d,
                             uint64_t seed) {
  fill(buffer, d, seed, SpecialRole());
}

void mlir::stark::fillPrefill(HostBuffer &buffer) {
  ElementKind kind = buffer.spec.kind;
  int64_t n = buffer.spec.numElements();
  if (isFloatKind(kind)) {
    double nan = std::numeric_limits<double>::quiet_NaN();
    forEachChunk(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        buffer.setFromDouble(i, nan);
    });
    return;
  }
  // A byte pattern no small generated value or plausible result has.
  std::memset(buffer.bytes.data(), 0x5a, buffer.bytes.size());
  if (kind == ElementKind::I1)
    for (int64_t i = 0; i < n; ++i)
      buffer.bytes[i] = 0; // i1 is stored as one byte holding 0 or 1
}

void mlir::stark::fillFiniteGarbage(HostBuffer &buffer, uint64_t seed) {
  if (!isFloatKind(buffer.spec.kind)) {
    fillPrefill(buffer);
    return;
  }
  fillRandom(buffer, Distribution::Normal, seed);
  forEachChunk(buffer.spec.numElements(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      buffer.setFromDouble(i, 4 * buffer.getAsDouble(i));
  });
}

void mlir::stark::fillDifferentFrom(HostBuffer &buffer,
                                    const HostBuffer &reference) {
  size_t size = std::min(buffer.bytes.size(), reference.bytes.size());
  if (buffer.spec.kind == ElementKind::I1) {
    for (size_t i = 0; i < size; ++i)
      buffer.bytes[i] = (reference.bytes[i] & 1) ^ 1;
    return;
  }
  for (size_t i = 0; i < size; ++i)
    buffer.bytes[i] = uint8_t(~reference.bytes[i]);
}

/// Whether the uniform trial rounds the float inputs to multiples of 1/8
/// (an integer output, such as an argmax, then has no near-ties).
static bool roundsToEighths(const KernelSignature &signature, Distribution d) {
  return d == Distribution::Uniform &&
         llvm::any_of(signature.args,
                      [](const ArgSpec &a) {
                        return a.isOutput && !isFloatKind(a.kind);
                      }) &&
         llvm::any_of(signature.args, [](const ArgSpec &a) {
           return !a.isOutput && isFloatKind(a.kind);
         });
}

static bool isReadArgument(const KernelSignature &signature,
                           ArrayRef<bool> outputIsRead, size_t i) {
  return !signature.args[i].isOutput ||
         (i < outputIsRead.size() && outputIsRead[i]);
}

/// Argument `i` of generateArguments(d, seed), made alone.
static HostBuffer generateArgument(const KernelSignature &signature,
                                   ArrayRef<bool> outputIsRead, size_t i,
                                   Distribution d, uint64_t seed) {
  const ArgSpec &spec = signature.args[i];
  HostBuffer buffer(spec);
  if (!isReadArgument(signature, outputIsRead, i)) {
    fillPrefill(buffer);
    return buffer;
  }
  // The primary argument is the first float one that is read; the other
  // float ones that are read are the secondaries, in order.
  SpecialRole role;
  int floats = 0, before = 0;
  for (size_t j = 0; j < signature.args.size(); ++j)
    if (isReadArgument(signature, outputIsRead, j) &&
        isFloatKind(signature.args[j].kind)) {
      ++floats;
      before += j < i;
    }
  if (before > 0)
    role = SpecialRole{before - 1, floats - 1};
  fill(buffer, d, mixSeed(seed, i), role);
  if (roundsToEighths(signature, d) && isFloatKind(spec.kind))
    forEachChunk(buffer.spec.numElements(), [&](int64_t begin, int64_t end) {
      for (int64_t e = begin; e < end; ++e)
        buffer.setFromDouble(e, std::round(buffer.getAsDouble(e) * 8) / 8);
    });
  return buffer;
}

std::vector<HostBuffer>
mlir::stark::generateArguments(const KernelSignature &signature,
                               ArrayRef<bool> outputIsRead, Distribution d,
                               uint64_t seed) {
  std::vector<HostBuffer> args;
  args.reserve(signature.args.size());
  for (size_t i = 0; i < signature.args.size(); ++i)
    args.push_back(generateArgument(signature, outputIsRead, i, d, seed));
  return args;
}

void mlir::stark::perturbRelative(HostBuffer &buffer, double relative,
                                  uint64_t seed) {
  if (!isFloatKind(buffer.spec.kind))
    return;
  forEachChunk(buffer.spec.numElements(), [&](int64_t begin, int64_t end) {
    Rng rng(seed, uint64_t(begin));
    for (int64_t i = begin; i < end; ++i)
      buffer.setFromDouble(i, buffer.getAsDouble(i) *
                                  (1 + rng.uniform(-1, 1) * relative));
  });
}

std::vector<HostBuffer>
mlir::stark::makeArguments(const KernelSignature &signature,
                           ArrayRef<bool> outputIsRead,
                           const ArgumentRecipe &recipe) {
  return applyRecipe(
      generateArguments(signature, outputIsRead, recipe.dist, recipe.seed),
      signature, outputIsRead, recipe);
}

std::vector<HostBuffer> mlir::stark::applyRecipe(
    std::vector<HostBuffer> args, const KernelSignature &signature,
    ArrayRef<bool> outputIsRead, const ArgumentRecipe &recipe) {
  for (auto [i, spec] : llvm::enumerate(signature.args))
    if (recipe.finitePrefill && spec.isOutput && isFloatKind(spec.kind) &&
        !(i < outputIsRead.size() && outputIsRead[i]))
      fillFiniteGarbage(args[i], mixSeed(recipe.seed, 0x9a5b + i));
  for (const auto &[i, buffer] : recipe.given)
    if (i < args.size())
      args[i] = buffer;
  return args;
}

std::vector<TimingSet>
mlir::stark::makeTimingSets(const KernelSignature &signature,
                            ArrayRef<bool> outputIsRead, uint64_t seed) {
  static constexpr Distribution kDists[] = {
      Distribution::Uniform, Distribution::Normal, Distribution::Uniform};
  SmallVector<unsigned> readArgs;
  for (auto [i, spec] : llvm::enumerate(signature.args))
    if (!spec.isOutput || (i < outputIsRead.size() && outputIsRead[i]))
      readArgs.push_back(unsigned(i));
  std::vector<TimingSet> sets;
  for (auto [k, dist] : llvm::enumerate(kDists)) {
    TimingSet set{dist, mixSeed(seed, 0x7137 + k), "", {}};
    set.name =
        (stringifyDistribution(dist) + ", seed " + std::to_string(set.seed))
            .str();
    if (k > 0 && !readArgs.empty()) {
      // Only the argument that changes is drawn: the others are set 0's.
      unsigned keep = readArgs[(k - 1) % readArgs.size()];
      set.args = sets.front().args;
      set.args[keep] =
          generateArgument(signature, outputIsRead, keep, dist, set.seed);
      if (readArgs.size() > 1)
        set.name +=
            ", argument #" + std::to_string(keep) + " changed from set 0";
    } else {
      set.args = generateArguments(signature, outputIsRead, dist, set.seed);
    }
    sets.push_back(std::move(set));
  }
  return sets;
}
