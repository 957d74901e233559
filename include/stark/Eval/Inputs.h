//===- Inputs.h - Deterministic kernel inputs and output prefill -*- C++
//-*-===//
//
// Every correctness trial of the evaluator runs the reference and the
// candidate on freshly generated inputs. The generator is self-contained
// (splitmix64 and Box-Muller, no <random> distributions) so a seed names the
// same bytes on every host and standard library.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_INPUTS_H
#define STARK_EVAL_INPUTS_H

#include "stark/Eval/EvalEnums.h"
#include "stark/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::stark {

/// Value distributions of generated inputs. For floats:
///  - Uniform:  U[-1, 1]
///  - Normal:   N(0, 1)
///  - Large:    +-U[0.5, 1] * L, L = 1e3 (1e2 for f16, whose range ends at
///              65504, so that one product of two inputs stays finite)
///  - Tiny:     +-U[0.5, 1] * 1e-3
///  - Negative: -U[0.05, 1]
/// Integers use small ranges so sums and products stay exact:
/// uniform/normal in [-8, 8] (i8: [-4, 4]), large in [-1000, 1000]
/// (i8: [-100, 100]), tiny in [-1, 1], negative in [-8, -1]; i1 is a coin.

///  - Special (floats; not cycled through, the evaluator runs it once):
///    U[-2, 2], except that in every fourth row about one element in
///    eleven is NaN, +inf, -inf, -0 or a denormal of the element kind,
///    rows 5 mod 8 are masked causally (their elements after the row's
///    position are -inf, as an attention mask before a softmax) and rows 2
///    mod 8 are -inf throughout. A row is the innermost dimension
///    (16 elements for a vector). That is the first float argument of a
///    trial (generateArguments); the others get special values only in
///    columns 3 mod 4, at one row of each slice of their second-to-last
///    dimension ((7 (column / 4) + 3) mod rows; a vector: rows 3 mod 4),
///    and no masks, so that a product of two operands keeps finite
///    elements and a special value in a column reaches the result alone.
///    Integers draw as Uniform.

/// All distributions but Special, in the order the evaluator cycles
/// through them.
ArrayRef<Distribution> getAllDistributions();

/// The nominal magnitude of a distribution's values for `kind` (1 for all
/// but Large and Tiny). The comparison scales its absolute tolerance for
/// distributions whose magnitude is above 1.
double getDistributionScale(Distribution d, ElementKind kind);

/// A 64-bit mix of `a` and `b` (splitmix64 finaliser); used to derive the
/// seed of each trial and argument from the user's seed.
uint64_t mixSeed(uint64_t a, uint64_t b);

/// Fills `buffer` with values of distribution `d`, rounded to its element
/// kind. The same (d, seed, spec) always gives the same bytes: element i
/// is the value the sequential stream of `seed` gives it, whichever thread
/// computes it (the buffer is filled in parallel chunks).
void fillRandom(HostBuffer &buffer, Distribution d, uint64_t seed);

/// Fills elements [begin, end) of `buffer` exactly as fillRandom does;
/// `begin` must be even (normals come in pairs).
void fillRandomRange(HostBuffer &buffer, Distribution d, uint64_t seed,
                     int64_t begin, int64_t end);

/// The evaluator's unit of parallel work on a buffer: large enough that a
/// thread's share outweighs its scheduling, and even (see fillRandomRange).
inline constexpr int64_t kChunkElements = int64_t(1) << 16;

/// Calls fn(begin, end) on consecutive chunks of kChunkElements covering
/// [0, n), on llvm::parallelFor's threads (in this thread when there is one
/// chunk). `fn` must only touch its own elements.
void forEachChunk(int64_t n, llvm::function_ref<void(int64_t, int64_t)> fn);

/// Fills a write-only output before a run: NaN for floats, a fixed sentinel
/// pattern for integers. A kernel that skips a write leaves it behind.
void fillPrefill(HostBuffer &buffer);

/// Fills a write-only output with finite values (normal, times 4) instead
/// of NaN: a kernel that accumulates into its output and reads NaN as zero
/// passes a NaN prefill, not this one. Integers: as fillPrefill.
void fillFiniteGarbage(HostBuffer &buffer, uint64_t seed);

/// Fills an integer output so that every element differs from the same
/// element of `reference` (bitwise complement; i1: the other value). Used
/// for a candidate's write-only integer outputs once the reference has run,
/// so that a skipped write can never coincide with the correct value.
void fillDifferentFrom(HostBuffer &buffer, const HostBuffer &reference);

/// Multiplies every element of the float `buffer` by (1 + r * relative),
/// r uniform in [-1, 1] from the stream of `seed` (deterministic, filled in
/// parallel like the inputs). The evaluator measures with it how far an
/// exact result moves when the inputs move by a rounding error.
void perturbRelative(HostBuffer &buffer, double relative, uint64_t seed);

/// How the arguments of one run of a candidate are made. The judge and the
/// candidate's runner both make them from this, so they travel as a recipe
/// rather than as bytes: generateArguments(dist, seed), write-only float
/// outputs prefilled with finite values instead of NaN when
/// `finitePrefill`, and the arguments in `given` taken as they are (an
/// integer output prefilled from the reference, which only the judge has).
struct ArgumentRecipe {
  Distribution dist = Distribution::Uniform;
  uint64_t seed = 0;
  bool finitePrefill = false;
  std::vector<std::pair<unsigned, HostBuffer>> given;
  /// 0: a plain run. n > 0: a run under another schedule
  /// (Target::runRescheduled, variant n), so that its work is placed and
  /// ordered differently.
  unsigned schedule = 0;
};

std::vector<HostBuffer> makeArguments(const KernelSignature &signature,
                                      ArrayRef<bool> outputIsRead,
                                      const ArgumentRecipe &recipe);
/// The arguments of `recipe` from those generateArguments(recipe.dist,
/// recipe.seed) made (`args`): a runner that keeps them runs a trial's
/// second run without drawing its inputs again.
std::vector<HostBuffer> applyRecipe(std::vector<HostBuffer> args,
                                    const KernelSignature &signature,
                                    ArrayRef<bool> outputIsRead,
                                    const ArgumentRecipe &recipe);

/// One of the input sets the timed runs rotate among.
struct TimingSet {
  Distribution dist;
  uint64_t seed;
  /// "normal, seed 123, argument #0 changed from set 0"
  std::string name;
  std::vector<HostBuffer> args;
};

/// The three timing sets of an evaluation with seed `seed`: set 0 uniform;
/// set k > 0 is set 0 with only its (k-1)-th read argument (input, or
/// output read before written) drawn anew, from the normal distribution
/// for set 1 and the uniform one for set 2. A model calls a kernel with the
/// same weight and new activations: a kernel that caches its result keyed
/// by one argument meets an input where that argument alone is the same.
std::vector<TimingSet> makeTimingSets(const KernelSignature &signature,
                                      ArrayRef<bool> outputIsRead,
                                      uint64_t seed);

/// Generates the arguments of one trial: inputs and read outputs from `d`
/// (each argument with its own seed derived from `seed`), write-only outputs
/// prefilled. `outputIsRead[i]` says whether argument i, when it is an
/// output, has its initial value read by the kernel. A problem with float
/// inputs and an integer output (a position, as of an argmax) gets uniform
/// float inputs on a grid of 1/8: rows then hold equal values, and which of
/// them a kernel picks is checked too.
std::vector<HostBuffer> generateArguments(const KernelSignature &signature,
                                          ArrayRef<bool> outputIsRead,
                                          Distribution d, uint64_t seed);

} // namespace mlir::stark

#endif // STARK_EVAL_INPUTS_H
