// RUN: stark-opt %s --stark-fold-constants="max-fold-bytes=-1" -verify-diagnostics

// expected-error @below {{stark-fold-constants: max-fold-bytes must not be negative, got -1}}
module {
}
