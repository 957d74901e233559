//===- stark-template.cpp - One CUDA template instance as a candidate -----===//
//
// stark-template --problem P.mlir --family gemm --params bm=128,bn=64 -o C.mlir
//
// Generates the candidate module of one family and parameter set of the
// CUDA template library for a kernel problem, so that it can be inspected or
// handed to `stark-eval --target cuda`. --list prints the families that
// apply and their enumerated parameter sets; --source prints only the CUDA
// C++. Exits non-zero, saying why, when the family does not apply.
// Families named td-* are the transform-dialect schedules
// (stark/Strategies/CudaSchedules.h): the candidate is the scheduled gpu.launch
// module, --source prints the transform script, --list the schedules.
//
//===----------------------------------------------------------------------===//

#include "stark/Analysis/HardwareProfile.h"
#include "stark/InitAll.h"
#include "stark/Strategies/CudaSchedules.h"
#include "stark/Strategies/CudaTemplates.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stark;
namespace cl = llvm::cl;

static cl::OptionCategory category("stark-template options");

static cl::opt<std::string>
    problemPath("problem", cl::desc("Problem module (- for stdin)"),
                cl::value_desc("file"), cl::init("-"), cl::cat(category));
static cl::opt<std::string>
    family("family",
           cl::desc("Template family (default: the most promising one that "
                    "applies)"),
           cl::cat(category));
static cl::opt<std::string>
    params("params",
           cl::desc("Parameters, name=value separated by commas (default: the "
                    "first enumerated set, or the family's defaults)"),
           cl::cat(category));
static cl::opt<std::string> outputPath("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<std::string> profileName("profile", cl::desc("Hardware profile"),
                                        cl::init("h200"), cl::cat(category));
static cl::opt<bool> allowTf32("allow-tf32",
                               cl::desc("Let f32 contractions use tf32 tensor "
                                        "cores"),
                               cl::cat(category));
static cl::opt<bool> list("list",
                          cl::desc("Print the applicable families and their "
                                   "parameter sets"),
                          cl::cat(category));
static cl::opt<bool> sourceOnly("source",
                                cl::desc("Print only the CUDA C++ source"),
                                cl::cat(category));

static int fail(const Twine &message) {
  llvm::errs() << "stark-template: " << message << "\n";
  return 1;
}

/// --family td-*: one transform-dialect schedule of the problem.
static int emitSchedule(ModuleOp problem, const HardwareProfile &profile) {
  std::string error;
  CudaSchedule schedule;
  schedule.family = family;
  if (!params.empty()) {
    FailureOr<TemplateParams> parsed = parseTemplateParams(params, error);
    if (failed(parsed))
      return fail(error);
    schedule.params = *parsed;
  } else {
    std::string whyNot;
    for (const CudaSchedule &s :
         enumerateCudaSchedules(problem, profile, whyNot))
      if (s.family == family) {
        schedule = s;
        break;
      }
    if (schedule.params.empty()) {
      // The family's own reason, when the op is the problem.
      if (failed(renderCudaTransformScript(problem, schedule, error)) &&
          StringRef(error).starts_with(family + ":"))
        whyNot = error;
      else
        whyNot = "no parameter set fits the op's loops and the profile";
      return fail("family '" + family + "' does not apply: " + whyNot);
    }
  }
  auto output = openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);
  if (sourceOnly) {
    FailureOr<std::string> script =
        renderCudaTransformScript(problem, schedule, error);
    if (failed(script))
      return fail(error);
    output->os() << *script;
  } else {
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        applyCudaSchedule(problem, schedule, error);
    if (failed(candidate))
      return fail(error);
    (*candidate)->getOperation()->removeAttr(mlir::stark::kProblemAttrName);
    (*candidate)->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "stark CUDA template instance generator\n");

  std::optional<HardwareProfile> profile = lookupHardwareProfile(profileName);
  if (!profile)
    return fail("unknown profile '" + profileName + "'");

  DialectRegistry registry;
  registerAllStarkDialects(registry);
  registerCudaScheduleDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = openInputFile(problemPath, &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> problem =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!problem)
    return fail("cannot parse the problem");

  if (StringRef(family).starts_with("td-"))
    return emitSchedule(*problem, *profile);
  if (list) {
    std::string whyNot;
    for (const CudaSchedule &s :
         enumerateCudaSchedules(*problem, *profile, whyNot))
      llvm::outs() << "schedule " << s.describe() << "\n";
  }

  FailureOr<ProblemView> view = getProblemView(*problem, error);
  if (failed(view))
    return fail("cannot read the problem: " + error);

  EnumerateOptions options;
  options.allowTf32 = allowTf32;
  if (list) {
    for (const std::string &f : getApplicableFamilies(*view, allowTf32)) {
      std::vector<TemplateParams> sets =
          enumerateParams(f, *view, *profile, options);
      llvm::outs() << f << ": " << sets.size() << " parameter sets\n";
      for (const TemplateParams &set : sets)
        llvm::outs() << "  " << formatTemplateParams(set) << "\n";
    }
    return 0;
  }

  std::string chosen = family;
  if (chosen.empty()) {
    SmallVector<std::string> families = getApplicableFamilies(*view, allowTf32);
    if (families.empty()) {
      // The direct family takes any linalg op; its reason is the one that
      // matters, but for the kinds only one family takes.
      (void)checkFamilyApplies(view->attention   ? "attention"
                               : view->isSoftmax ? "softmax"
                                                 : "direct",
                               *view, error);
      return fail("no template family applies to " + view->opName + ": " +
                  error);
    }
    chosen = families.front();
  }
  if (failed(checkFamilyApplies(chosen, *view, error)))
    return fail("family '" + chosen + "' does not apply to " + view->opName +
                ": " + error);

  TemplateParams chosenParams;
  if (!params.empty()) {
    FailureOr<TemplateParams> parsed = parseTemplateParams(params, error);
    if (failed(parsed))
      return fail(error);
    chosenParams = *parsed;
  } else {
    std::vector<TemplateParams> sets =
        enumerateParams(chosen, *view, *profile, options);
    if (!sets.empty())
      chosenParams = sets.front();
  }
  if (allowTf32 && chosen == "gemm_tc")
    chosenParams["allow_tf32"] = 1;

  FailureOr<CudaKernelPlan> plan =
      generateCudaKernel(chosen, *view, chosenParams, error);
  if (failed(plan))
    return fail("family '" + chosen + "' cannot generate a kernel for " +
                view->opName + ": " + error);

  auto output = openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);
  if (sourceOnly) {
    output->os() << plan->source;
  } else {
    FailureOr<OwningOpRef<ModuleOp>> candidate =
        buildCudaCandidateModule(*problem, *plan, error);
    if (failed(candidate))
      return fail(error);
    (*candidate)->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}
