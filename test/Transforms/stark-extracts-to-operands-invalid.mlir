// RUN: stark-opt %s --stark-extracts-to-operands="max-points=0" -verify-diagnostics

// expected-error @below {{stark-extracts-to-operands: max-points must be at least 1, not 0}}
module {
}
