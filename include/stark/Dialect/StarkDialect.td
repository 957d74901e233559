//===- StarkDialect.td - The stark dialect: the IR contract -*- tablegen -*-===//

#ifndef STARK_DIALECT_STARKDIALECT_TD
#define STARK_DIALECT_STARKDIALECT_TD

include "mlir/IR/DialectBase.td"

def Stark_Dialect : Dialect {
  let name = "stark";
  let cppNamespace = "::mlir::stark";
  let summary = "Typed attributes that carry stark's results between passes";
  let description = [{
    The stark dialect has no operations. Its attributes are the contract
    between the passes: `stark-hot-ops` writes `#stark.cost`, `stark-outline`
    writes `#stark.problem`, `stark-search` writes `#stark.winner` and the
    candidates' `#stark.cuda` / `#stark.schedule`, `stark-substitute` reads
    them all. The dialect verifies the discardable attributes `stark.cost`,
    `stark.problem`, `stark.winner`, `stark.cuda` and `stark.schedule` on any
    operation, so that an attribute of the wrong kind is an error at parse
    time rather than a surprise in a pass.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

#endif // STARK_DIALECT_STARKDIALECT_TD
