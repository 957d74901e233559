//===- EvalEnums.h - Enums of the evaluator ---------------------*- C++ -*-===//
//
// EvalStatus and Distribution with their stringify / symbolize functions,
// generated from EvalEnums.td.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_EVALENUMS_H
#define STARK_EVAL_EVALENUMS_H

#include "stark/Analysis/AnalysisEnums.h"

#include "stark/Eval/EvalEnums.h.inc"

#endif // STARK_EVAL_EVALENUMS_H
