// An option value reaches its pass, which judges it as it would alone.
// RUN: stark-opt %s --stark-pipeline="target=cpu min-speedup=-0.5" -verify-diagnostics

// An option no pass has is refused by name.
// RUN: not stark-opt %s --stark-pipeline="target=cpu bogus=1" 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: no such option bogus

// expected-error @below {{stark-search: min-speedup must not be negative}}
module {
}
