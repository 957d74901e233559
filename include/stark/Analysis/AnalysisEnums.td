//===- AnalysisEnums.td - Enums of the analysis library ----*- tablegen -*-===//
//
// The enums the analyses classify into, with their spellings in remarks,
// reports and attributes. TableGen writes the stringify / symbolize
// functions, so a name has exactly one spelling.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_ENUMS
#define STARK_ANALYSIS_ENUMS

include "stark/Analysis/StarkEnumBase.td"

// The element types of problems: the evaluator generates, moves and
// compares them, the generators read and compute them. `index` is i64.
def Stark_ElementKind : Stark_Enum<"ElementKind", "element type", [
  I32EnumAttrCase<"F64", 0, "f64">,
  I32EnumAttrCase<"F32", 1, "f32">,
  I32EnumAttrCase<"F16", 2, "f16">,
  I32EnumAttrCase<"BF16", 3, "bf16">,
  I32EnumAttrCase<"I64", 4, "i64">,
  I32EnumAttrCase<"I32", 5, "i32">,
  I32EnumAttrCase<"I16", 6, "i16">,
  I32EnumAttrCase<"I8", 7, "i8">,
  I32EnumAttrCase<"I1", 8, "i1">
]>;

// The classes of ops the strategies have families for.
def Stark_OpClass : Stark_Enum<"OpClass", "op class", [
  // matmul, batch_matmul, matvec, generic contractions
  I32EnumAttrCase<"Contraction", 0, "contraction">,
  // conv_*, depthwise conv
  I32EnumAttrCase<"Convolution", 1, "convolution">,
  // pooling_*
  I32EnumAttrCase<"Pooling", 2, "pooling">,
  // some reduction dimension, not a contraction
  I32EnumAttrCase<"Reduction", 3, "reduction">,
  // all-parallel, identity-like maps
  I32EnumAttrCase<"Elementwise", 4, "elementwise">,
  // anything else (transposes, broadcasts, gathers)
  I32EnumAttrCase<"Generic", 5, "generic">
]>;

// The classes of arithmetic units hardware profiles give peak rates for.
def Stark_ComputeType : Stark_Enum<"ComputeType", "compute type", [
  I32EnumAttrCase<"F64", 0, "f64">,
  I32EnumAttrCase<"F32", 1, "f32">,
  I32EnumAttrCase<"TF32", 2, "tf32">,
  I32EnumAttrCase<"F16", 3, "f16">,
  I32EnumAttrCase<"BF16", 4, "bf16">,
  I32EnumAttrCase<"F8", 5, "f8">,
  I32EnumAttrCase<"I8", 6, "i8">,
  I32EnumAttrCase<"I32", 7, "i32">,
  I32EnumAttrCase<"Other", 8, "other">
]>;

#endif // STARK_ANALYSIS_ENUMS
