//===- AnalysisEnums.h - Enums of the analysis library ----------*- C++ -*-===//
//
// ElementKind, OpClass and ComputeType with their stringify / symbolize
// functions, generated from AnalysisEnums.td.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_ANALYSISENUMS_H
#define STARK_ANALYSIS_ANALYSISENUMS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

#include "stark/Analysis/AnalysisEnums.h.inc"

#endif // STARK_ANALYSIS_ANALYSISENUMS_H
