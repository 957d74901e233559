// RUN: stark-opt %s --split-input-file --verify-diagnostics

// Attribute verifiers.

// expected-error @+1 {{'bound' must be "compute" or "memory", got "disk"}}
func.func private @f() attributes {stark.cost = #stark.cost<bound = "disk", bytes = 1, op_class = "contraction", dtype = "f32", flops = 1, profile = "h200", rank = 1, share = 0.5, time_us = 1.0>}

// -----

// expected-error @+1 {{'share' must be within [0, 1], got 1.5}}
func.func private @f() attributes {stark.cost = #stark.cost<bound = "memory", bytes = 1, op_class = "contraction", dtype = "f32", flops = 1, profile = "h200", rank = 1, share = 1.5, time_us = 1.0>}

// -----

// expected-error @+1 {{'rank' must be positive, got 0}}
func.func private @f() attributes {stark.cost = #stark.cost<bound = "memory", bytes = 1, op_class = "contraction", dtype = "f32", flops = 1, profile = "h200", rank = 0, share = 0.5, time_us = 1.0>}

// -----

// expected-error @+1 {{'bytes' and 'flops' must not be negative}}
func.func private @f() attributes {stark.cost = #stark.cost<bound = "memory", bytes = -1, op_class = "contraction", dtype = "f32", flops = 1, profile = "h200", rank = 1, share = 0.5, time_us = 1.0>}

// -----

// expected-error @+1 {{'time_us' must not be negative, got -1}}
func.func private @f() attributes {stark.cost = #stark.cost<bound = "memory", bytes = 1, op_class = "contraction", dtype = "f32", flops = 1, profile = "h200", rank = 1, share = 0.5, time_us = -1.0>}

// -----

// expected-error @+1 {{'num_outputs' must be positive, got 0}}
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 0>} {}

// -----

// expected-error @+1 {{'entry' must name the entry function}}
module attributes {stark.problem = #stark.problem<entry = "", num_outputs = 1>} {}

// -----

// expected-error @+1 {{'fused_ops' must be positive, got 0}}
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 0, num_outputs = 1>} {}

// -----

// A required parameter cannot be left out.
// expected-error @+1 {{struct is missing required parameter: num_outputs}}
module attributes {stark.problem = #stark.problem<entry = "kernel">} {}

// -----

// expected-error @+1 {{'strategy' must not be empty}}
module attributes {stark.winner = #stark.winner<candidate = 1, speedup = 2.0, strategy = "">} {}

// -----

// expected-error @+1 {{'speedup' must be positive, got 0}}
module attributes {stark.winner = #stark.winner<candidate = 1, speedup = 0.0, strategy = "gemm">} {}

// -----

// expected-error @+1 {{'candidate' must not be negative, got -2}}
module attributes {stark.winner = #stark.winner<candidate = -2, speedup = 2.0, strategy = "gemm">} {}

// -----

// expected-error @+1 {{'baseline_us' and 'winner_us' must be positive, got 0}}
module attributes {stark.winner = #stark.winner<baseline_us = 0.0, candidate = 1, speedup = 2.0, strategy = "gemm">} {}

// -----

// A parameter is a scalar: an integer, a number, a boolean or a string.
// expected-error @+1 {{parameter 'tile' must be an integer, a number, a boolean or a string, got [64, 32]}}
module attributes {stark.winner = #stark.winner<candidate = 1, params = {bm = 64 : i64, tile = [64, 32]}, speedup = 2.0, strategy = "gemm">} {}

// -----

// expected-error @+1 {{'source' must not be empty}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k">], source = "">}

// -----

// expected-error @+1 {{'launches' must not be empty}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [], source = "__global__ void k() {}">}

// -----

// expected-error @+1 {{'launches' must hold #stark.launch attributes}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [{kernel = "k"}], source = "__global__ void k() {}">}

// -----

// expected-error @+2 {{'tensor_maps' must hold #stark.tensor_map attributes}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [1]>], source = "__global__ void k() {}">}

// -----

// expected-error @+3 {{'shape' must have 1 to 5 extents and 'box' as many}}
// expected-error @+2 {{failed to parse Stark_LaunchAttr parameter 'tensor_maps'}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [#stark.tensor_map<arg = 0, shape = array<i64: 4, 4>, box = array<i64: 4>>]>], source = "__global__ void k() {}">}

// -----

// expected-error @+3 {{'shape' extents must be positive and 'box' extents 1 to 256}}
// expected-error @+2 {{failed to parse Stark_LaunchAttr parameter 'tensor_maps'}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [#stark.tensor_map<arg = 0, shape = array<i64: 4, 512>, box = array<i64: 4, 512>>]>], source = "__global__ void k() {}">}

// -----

// expected-error @+3 {{'arg' must name an argument, got -1}}
// expected-error @+2 {{failed to parse Stark_LaunchAttr parameter 'tensor_maps'}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [#stark.tensor_map<arg = -1, shape = array<i64: 4>, box = array<i64: 4>>]>], source = "__global__ void k() {}">}

// -----

// expected-error @+1 {{'options' must be an array of strings}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k">], options = [1], source = "__global__ void k() {}">}

// -----

// expected-error @+2 {{'grid' must be 1 to 3 positive integers (array<i64: x, y, z>)}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 0>, kernel = "k">], source = "__global__ void k() {}">}

// -----

// expected-error @+2 {{'block' must be 1 to 3 positive integers (array<i64: x, y, z>)}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 1, 1, 1, 1>, grid = array<i64: 1>, kernel = "k">], source = "__global__ void k() {}">}

// -----

// expected-error @+2 {{'kernel' must name a kernel}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "">], source = "__global__ void k() {}">}

// -----

// expected-error @+2 {{'shared_bytes' must not be negative, got -4}}
// expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
func.func private @k() attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", shared_bytes = -4>], source = "__global__ void k() {}">}

// -----

// expected-error @+1 {{'script' must not be empty}}
func.func private @f() attributes {stark.schedule = #stark.schedule<family = "td-matmul", params = {}, script = "">}

// -----

// expected-error @+1 {{'family' must not be empty}}
func.func private @f() attributes {stark.schedule = #stark.schedule<family = "", params = {}, script = "transform.named_sequence">}

// -----

// Old string-keyed dictionaries are rejected, each with the attribute it
// must be now.

// expected-error @+1 {{'builtin.module' op 'stark.problem' must be a #stark.problem attribute (string-keyed dictionaries are no longer accepted)}}
module attributes {stark.problem = {entry = "kernel", num_outputs = 1 : i64}} {}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.copy' op 'stark.cost' must be a #stark.cost attribute (string-keyed dictionaries are no longer accepted)}}
  %r = linalg.copy {stark.cost = {bound = "memory", rank = 1 : i64}} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.winner' must be a #stark.winner attribute (string-keyed dictionaries are no longer accepted)}}
module attributes {stark.winner = {candidate = 1 : i64, speedup = 2.0 : f64, strategy = "gemm"}} {}

// -----

// expected-error @+1 {{'func.func' op 'stark.cuda' must be a #stark.cuda attribute (string-keyed dictionaries are no longer accepted)}}
func.func private @k() attributes {stark.cuda = {source = "__global__ void k() {}", launches = []}}

// -----

// expected-error @+1 {{'func.func' op 'stark.cuda' must be a #stark.cuda attribute}}
func.func private @k() attributes {stark.cuda = "__global__ void k() {}"}

// -----

// expected-error @+1 {{'func.func' op 'stark.schedule' must be a #stark.schedule attribute (string-keyed dictionaries are no longer accepted)}}
func.func private @f() attributes {stark.schedule = {family = "td-matmul", params = {}, script = "x"}}

// -----

// expected-error @+1 {{'func.func' op 'stark.template' is no longer used: the family and params are part of #stark.cuda}}
func.func private @f() attributes {stark.template = {family = "gemm", params = {}}}

// -----

// Each attribute on the wrong kind of op.

// An op of the program names its problem; the description is the module's.
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.copy' op 'stark.problem' must be a symbol reference to a problem module (a #stark.problem attribute belongs on the module)}}
  %r = linalg.copy {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.problem' must be a #stark.problem attribute}}
module attributes {stark.problem = @stark_problem_0} {}

// -----

func.func private @g()
func.func @f() {
  // expected-error @+1 {{'func.call' op 'stark.winner' on a substituted call must be a dictionary {candidate, signature, speedup, strategy} (a #stark.winner attribute belongs on a problem module)}}
  call @g() {stark.winner = #stark.winner<candidate = 1, speedup = 2.0, strategy = "gemm">} : () -> ()
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.cuda' belongs on a function}}
module attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k">], source = "__global__ void k() {}">} {}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.schedule' belongs on a function}}
module attributes {stark.schedule = #stark.schedule<family = "td-matmul", params = {}, script = "x">} {}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.cost' must be a #stark.cost attribute}}
module attributes {stark.cost = #stark.problem<entry = "kernel", num_outputs = 1>} {}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.unfused' belongs on a problem module and lists the symbols of problems}}
module attributes {stark.unfused = ["stark_problem_1"]} {}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.copy' op 'stark.unfused_problem' must be a symbol reference to a problem module}}
  %0 = linalg.copy {stark.unfused_problem = "stark_problem_1"} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.baseline_us' belongs on a problem module and is a positive time}}
module attributes {stark.baseline_us = -1.0 : f64} {}

// -----

// expected-error @+1 {{'builtin.module' op 'stark.synthesized_weights' belongs on a module and lists the names of the weights synthesised in it}}
module attributes {stark.synthesized_weights = ["@w", 3]} {}

// -----

// expected-error @+1 {{'func.func' op 'stark.synthesized_weights' belongs on a module}}
func.func private @f() attributes {stark.synthesized_weights = ["@w"]}
