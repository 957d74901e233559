// With a usable device, target=auto resolves to cuda once, in the pipeline,
// and hot ops are ranked with the h200 profile the search uses; contractions
// are outlined with their epilogue (for cuda only).
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline 2>&1 | FileCheck %s
// CHECK:      stark-hot-ops{{[^}]*}}profile=h200
// CHECK-NEXT: stark-outline{{[^}]*}}fuse-epilogues=true
// CHECK-NEXT: stark-search{{[^}]*}}profile=h200 {{[^}]*}}target=cuda

module {
}
