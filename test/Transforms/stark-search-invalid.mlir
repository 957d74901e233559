// Bad options of --stark-search are errors at the module; the IR is left
// alone.
// RUN: stark-opt %s --split-input-file --stark-search="target=tpu" -verify-diagnostics
// RUN: not stark-opt %s --stark-search="agent=oracle" 2>&1 | FileCheck %s --check-prefix=AGENT
// RUN: not stark-opt %s --stark-search="target=cpu budget=0" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not stark-opt %s --stark-search="target=cpu agent=replay" 2>&1 | FileCheck %s --check-prefix=NOTRANSCRIPT
// RUN: not stark-opt %s --stark-search="target=cpu seconds=0" 2>&1 | FileCheck %s --check-prefix=SECONDS
// RUN: not stark-opt %s --stark-search="target=cpu min-speedup=-1" 2>&1 | FileCheck %s --check-prefix=MINSPEEDUP
// RUN: not stark-opt %s --stark-search="target=cpu evaluation-prior=0" 2>&1 | FileCheck %s --check-prefix=PRIOR
// RUN: not stark-opt %s --stark-search="target=cpu min-speedup=0 tuning-db=%t.db" 2>&1 | FileCheck %s --check-prefix=MINSPEEDUPDB
// RUN: not stark-opt %s --stark-search="target=cpu agent=replay transcript=%S/Inputs/search-malformed.json progress=0" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not stark-opt %s --stark-search="target=cpu agent=replay transcript=%t.missing progress=0" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stark-opt %s --stark-search="target=cpu devices=0" 2>&1 | FileCheck %s --check-prefix=DEVICES
// RUN: not stark-opt %s --stark-search="target=cpu workers-per-device=0" 2>&1 | FileCheck %s --check-prefix=WORKERS
// RUN: not stark-opt %s --stark-search="target=cpu devices=2" 2>&1 | FileCheck %s --check-prefix=CPUDEVICES

// AGENT: error: stark-search: agent 'oracle' is not available in this build; expected expert, {{.*}}replay
// BUDGET: error: stark-search: budget must be at least 1
// NOTRANSCRIPT: error: stark-search: agent replay needs transcript=FILE
// SECONDS: error: stark-search: seconds and timeout must be positive
// MINSPEEDUP: error: stark-search: min-speedup must not be negative
// PRIOR: error: stark-search: evaluation-prior must be positive
// MINSPEEDUPDB: error: stark-search: min-speedup below 1 would record winners slower than their baseline; leave tuning-db out
// MALFORMED: error: stark-search: transcript '{{.*}}search-malformed.json', proposal 0: needs "payload" or "payload_file"
// MISSING: error: stark-search: cannot read transcript '{{.*}}.missing'
// DEVICES: error: stark-search: devices must be at least 1
// WORKERS: error: stark-search: workers-per-device must be at least 1
// CPUDEVICES: error: stark-search: devices=2 needs the cuda target; the cpu target has one device (use workers-per-device for parallel cpu workers)

// expected-error @below {{stark-search: unknown target 'tpu'; expected cpu, cuda or auto}}
module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.copy", shapes = "4xf32->4xf32", signature = "00">} {
    func.func @kernel(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return
    }
  }
}
