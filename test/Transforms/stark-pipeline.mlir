// --stark-pipeline takes every option of its passes and hands each to the
// pass it belongs to; `profile` feeds both stark-hot-ops and stark-search.
// The module is empty, so the passes run without work.
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline="target=cpu profile=a100 top-k=7 min-share=0.25 remark-all=1 all=1 dir=%t.problems fuse=0 agent=replay transcript=%t.transcript budget=4 seconds=9 seed=3 report=%t.json timeout=8 reference-timeout=30 min-speedup=1.5 timing-trials=6 trials=2 allow-tf32=1 progress=0 tuning-db=%t.db retune=1 device=cpu:test keep-problems=1 cuda-chip=sm_80 cuda-format=ptx" 2>&1 | FileCheck %s --check-prefix=ALL
// ALL:      stark-hot-ops{min-share=2.500000e-01 profile=a100 remark-all=true top-k=7},
// ALL-NEXT: stark-outline{all=true dir={{.*}}.problems fuse=false},
// ALL-NEXT: stark-search{agent=replay allow-tf32=true budget=4 device=cpu:test min-speedup=1.500000e+00 profile=a100 progress=false reference-timeout=3.000000e+01 report={{.*}}.json retune=true seconds=9.000000e+00 seed=3 target=cpu timeout=8.000000e+00 timing-trials=6 transcript={{.*}}.transcript trials=2 tuning-db={{.*}}.db},
// ALL-NEXT: stark-substitute{cuda-chip=sm_80 cuda-format=ptx keep-problems=true}

// The pipeline's own defaults: top-k is 3 (the pass alone marks 5).
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline="target=cpu" 2>&1 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS:      stark-hot-ops{min-share=0.000000e+00 profile=host remark-all=false top-k=3},
// DEFAULTS-NEXT: stark-outline{all=false dir= fuse=true},
// DEFAULTS-NEXT: stark-search{agent=expert allow-tf32=false budget=12 device= min-speedup=1.050000e+00 profile=host progress=true reference-timeout=6.000000e+02 report= retune=false seconds=1.200000e+02 seed=0 target=cpu timeout=6.000000e+01 timing-trials=10 transcript= trials=5 tuning-db=},
// DEFAULTS-NEXT: stark-substitute{cuda-chip= cuda-format=cubin keep-problems=false}

module {
}
