//===- stark-tune.cpp - Inspect, merge and export tuning databases --------===//
//
//   stark-tune list DB...                      one line per record
//   stark-tune merge -o OUT DB...              one record per key, the fastest
//   stark-tune export -o SPEC [--device D] DB...   the tuning spec of D
//
//===----------------------------------------------------------------------===//

#include "stark/InitAll.h"
#include "stark/Tuning/TuningDatabase.h"
#include "stark/Tuning/TuningSpec.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stark;
namespace cl = llvm::cl;

static cl::SubCommand listCommand("list", "Print one line per record");
static cl::list<std::string> listInputs(cl::Positional, cl::OneOrMore,
                                        cl::desc("<database>..."),
                                        cl::sub(listCommand));

static cl::SubCommand
    mergeCommand("merge",
                 "Merge databases: one record per signature and device (and "
                 "tf32 bound), the one with the highest speedup");
static cl::list<std::string> mergeInputs(cl::Positional, cl::OneOrMore,
                                         cl::desc("<database>..."),
                                         cl::sub(mergeCommand));
static cl::opt<std::string> mergeOutput("o", cl::Required,
                                        cl::desc("Output database"),
                                        cl::value_desc("file"),
                                        cl::sub(mergeCommand));

static cl::SubCommand
    exportCommand("export",
                  "Write the tuning spec (a transform-dialect module) of one "
                  "device's records");
static cl::list<std::string> exportInputs(cl::Positional, cl::OneOrMore,
                                          cl::desc("<database>..."),
                                          cl::sub(exportCommand));
static cl::opt<std::string> exportOutput("o", cl::Required,
                                         cl::desc("Output spec (.mlir)"),
                                         cl::value_desc("file"),
                                         cl::sub(exportCommand));
static cl::opt<std::string> exportDevice(
    "device",
    cl::desc("Device whose records the spec holds (default: the only one)"),
    cl::sub(exportCommand));
static cl::opt<bool>
    exportTf32("allow-tf32",
               cl::desc("Include winners verified against the tf32 bound"),
               cl::sub(exportCommand));

static int fail(const Twine &message) {
  llvm::WithColor::error(llvm::errs(), "stark-tune") << message << "\n";
  return 1;
}

/// The records of every file of `paths`, in order; each must exist.
static FailureOr<std::vector<TuningRecord>>
readAll(const cl::list<std::string> &paths, std::string &error) {
  std::vector<TuningRecord> records;
  for (const std::string &path : paths) {
    FailureOr<TuningDatabase> db =
        readTuningDatabase(path, error, /*mustExist=*/true);
    if (failed(db))
      return failure();
    llvm::append_range(records, db->records);
  }
  return records;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "stark tuning databases: list, merge, export\n");
  std::string error;
  if (listCommand) {
    FailureOr<std::vector<TuningRecord>> records = readAll(listInputs, error);
    if (failed(records))
      return fail(error);
    for (const TuningRecord &r : *records) {
      std::string params;
      for (const auto &[k, v] : r.params)
        params += " " + k + "=" + v;
      llvm::outs() << llvm::formatv(
          "{0} {1} {2} {3} {4:f2}x {5}{6}{7}\n", r.signature, r.device, r.op,
          r.shapes, r.speedup, r.strategy, params, r.allowTf32 ? " tf32" : "");
    }
    return 0;
  }
  if (mergeCommand) {
    FailureOr<std::vector<TuningRecord>> records = readAll(mergeInputs, error);
    if (failed(records))
      return fail(error);
    std::vector<TuningRecord> merged = mergeTuningRecords(*records);
    if (failed(writeTuningDatabase(mergeOutput, merged, error)))
      return fail(error);
    return 0;
  }
  if (exportCommand) {
    FailureOr<std::vector<TuningRecord>> records = readAll(exportInputs, error);
    if (failed(records))
      return fail(error);
    TuningDatabase db;
    db.records = std::move(*records);
    std::string device = exportDevice;
    FailureOr<std::vector<const TuningRecord *>> selected =
        selectSpecRecords(db, device, exportTf32, error);
    if (failed(selected))
      return fail(error);
    DialectRegistry registry;
    registerAllStarkDialects(registry);
    MLIRContext context(registry);
    context.loadAllAvailableDialects();
    FailureOr<OwningOpRef<ModuleOp>> spec =
        buildTuningSpec(*selected, device, &context, error);
    if (failed(spec))
      return fail(error);
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(exportOutput, &error);
    if (!out)
      return fail(error);
    out->os()
        << "// stark tuning spec: " << selected->size()
        << " winner(s) recorded on " << device
        << ". Apply with stark-opt --stark-apply-tuning-spec=\"spec=FILE\".\n";
    (*spec)->print(out->os());
    out->os() << "\n";
    out->keep();
    return 0;
  }
  return fail("expected a command: list, merge or export (see --help)");
}
