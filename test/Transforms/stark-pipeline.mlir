// --stark-pipeline takes every option of its passes and hands each to the
// pass it belongs to; `profile` feeds stark-hot-ops, stark-outline (its
// fusion cost model) and stark-search.
// The module is empty, so the passes run without work.
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline="target=cpu devices=1 workers-per-device=3 mpi=0 mpi-grace=4 max-fold-bytes=64 synthesize-elided-weights=1 profile=a100 top-k=7 min-share=0.25 remark-all=1 all=1 dir=%t.problems fuse=0 fuse-attention=0 fuse-conv-epilogues=0 cost-model=0 compare-unfused=1 agent=replay transcript=%t.transcript budget=4 seconds=9 total-seconds=100 evaluation-prior=2 summary=0 seed=3 report=%t.json timeout=8 reference-timeout=30 min-speedup=1.5 timing-trials=6 trials=2 screen=0 allow-tf32=1 llm-provider=anthropic llm-url=http://h llm-model=m llm-key-env=K llm-max-tokens=99 llm-timeout=5 llm-connect-timeout=2 llm-retries=1 llm-backoff=0.5 llm-token-budget=1000 llm-cost-budget=1.5 llm-price-in=3 llm-price-out=15 llm-planner-temperature=0.9 llm-coder-temperature=0.1 llm-concurrency=3 llm-debugger-temperature=0.3 llm-prompts=%t.prompts llm-fallback=expert precompile=0 progress=0 tuning-db=%t.db retune=1 device=cpu:test keep-problems=1 cuda-chip=sm_80 cuda-format=ptx" 2>&1 | FileCheck %s --check-prefix=ALL
// ALL:      stark-fold-constants{max-fold-bytes=64 synthesize-elided-weights=true},
// ALL-NEXT: stark-extracts-to-operands{max-points=4194304},
// ALL-NEXT: stark-unit-dim-transposes,
// ALL-NEXT: stark-hot-ops{min-share=2.500000e-01 profile=a100 remark-all=true top-k=7},
// ALL-NEXT: stark-outline{all=true compare-unfused=true cost-model=false dir={{.*}}.problems fuse=false fuse-attention=false fuse-conv-epilogues=false fuse-epilogues=false profile=a100},
// ALL-NEXT: stark-search{agent=replay allow-tf32=true budget=4 device=cpu:test devices=1 evaluation-prior=2.000000e+00 llm-backoff=5.000000e-01 llm-coder-temperature=1.000000e-01 llm-concurrency=3 llm-connect-timeout=2.000000e+00 llm-cost-budget=1.500000e+00 llm-debugger-temperature=3.000000e-01 llm-fallback=expert llm-key-env=K llm-max-tokens=99 llm-model=m llm-planner-temperature=9.000000e-01 llm-price-in=3.000000e+00 llm-price-out=1.500000e+01 llm-prompts={{.*}}.prompts llm-provider=anthropic llm-retries=1 llm-timeout=5.000000e+00 llm-token-budget=1000 llm-url=http://h min-speedup=1.500000e+00 mpi=false mpi-grace=4.000000e+00 precompile=false profile=a100 progress=false reference-timeout=3.000000e+01 report={{.*}}.json retune=true sanitize-winner=true screen=false seconds=9.000000e+00 seed=3 summary=false target=cpu timeout=8.000000e+00 timing-trials=6 total-seconds=1.000000e+02 transcript={{.*}}.transcript trials=2 tuning-db={{.*}}.db workers-per-device=3},
// ALL-NEXT: stark-substitute{cuda-chip=sm_80 cuda-format=ptx keep-problems=true}

// The pipeline's own defaults: top-k is 3 (the pass alone marks 5), the
// model's summary is a remark; work on constants is folded before ranking;
// contractions take their epilogue for the cuda target only (the cpu
// target's schedules tile single contractions).
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline="target=cpu" 2>&1 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS:      stark-fold-constants{max-fold-bytes=1073741824 synthesize-elided-weights=false},
// DEFAULTS-NEXT: stark-extracts-to-operands{max-points=4194304},
// DEFAULTS-NEXT: stark-unit-dim-transposes,
// DEFAULTS-NEXT: stark-hot-ops{min-share=0.000000e+00 profile=host remark-all=false top-k=3},
// DEFAULTS-NEXT: stark-outline{all=false compare-unfused=false cost-model=true dir= fuse=true fuse-attention=true fuse-conv-epilogues=true fuse-epilogues=false profile=host},
// DEFAULTS-NEXT: stark-search{agent=expert allow-tf32=false budget=12 device= devices=1 evaluation-prior=1.000000e+00 llm-backoff=1.000000e+00 llm-coder-temperature=2.000000e-01 llm-concurrency=0 llm-connect-timeout=1.000000e+01 llm-cost-budget=0.000000e+00 llm-debugger-temperature=2.000000e-01 llm-fallback=none llm-key-env= llm-max-tokens=4096 llm-model= llm-planner-temperature=7.000000e-01 llm-price-in=0.000000e+00 llm-price-out=0.000000e+00 llm-prompts= llm-provider= llm-retries=3 llm-timeout=1.200000e+02 llm-token-budget=0 llm-url= min-speedup=1.050000e+00 mpi=false mpi-grace=1.000000e+01 precompile=true profile=host progress=true reference-timeout=6.000000e+02 report= retune=false sanitize-winner=true screen=true seconds=1.200000e+02 seed=0 summary=true target=cpu timeout=6.000000e+01 timing-trials=10 total-seconds=0.000000e+00 transcript= trials=5 tuning-db= workers-per-device=1},
// DEFAULTS-NEXT: stark-substitute{cuda-chip= cuda-format=cubin keep-problems=false}

module {
}
