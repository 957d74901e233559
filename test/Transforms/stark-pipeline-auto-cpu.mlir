// target=auto is resolved once, by the pipeline: without a usable CUDA
// device it is cpu, and hot ops are ranked with the profile of the target
// the search runs on (host), as the search itself uses.
// UNSUPPORTED: cuda-device
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline 2>&1 | FileCheck %s
// CHECK:      stark-hot-ops{{[^}]*}}profile=host
// CHECK-NEXT: stark-outline
// CHECK-NEXT: stark-search{{[^}]*}}profile=host {{[^}]*}}target=cpu

// A profile given explicitly wins.
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline="profile=h200" 2>&1 | FileCheck %s --check-prefix=PROFILE
// PROFILE:      stark-hot-ops{{[^}]*}}profile=h200
// PROFILE-NEXT: stark-outline
// PROFILE-NEXT: stark-search{{[^}]*}}profile=h200 {{[^}]*}}target=cpu

module {
}
