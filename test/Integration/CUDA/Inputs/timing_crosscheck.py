#!/usr/bin/env python3
"""Times a CUDA C++ candidate independently of stark and compares.

    timing_crosscheck.py --stark-json R.json --problem P.mlir --kernel K.cu
                         [-D NAME=VALUE ...] [--tolerance 0.10]

R.json is `stark-eval --json` for the candidate that cuda_candidate.py made
from K.cu and the same -D values. This script builds the same source with
CuPy's NVRTC, launches it as the `// launch:` lines say on random inputs of
the problem's shapes, and measures it the way the evaluation protocol asks
(docs/evaluation.md): the L2 flushed by a memset of twice its size before
every trial, CUDA events recorded around the kernels only, the median of the
trials. It exits 1 unless the two medians agree within the tolerance.
"""

import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuda_candidate  # noqa: E402

DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16",
          "i32": "int32", "i64": "int64", "i8": "int8"}


def report(line):
    """To stdout for FileCheck, and to stderr so that lit shows it."""
    print(line, flush=True)
    print(line, file=sys.stderr, flush=True)


def problem_shapes(path):
    """The (shape, dtype) of each memref argument of the problem's entry."""
    _, args = cuda_candidate.problem_entry(path)
    shapes = []
    for m in re.finditer(r"memref<([0-9x]*)(f32|f64|f16|i32|i64|i8)>", args):
        dims = [int(d) for d in m.group(1).split("x") if d]
        shapes.append((tuple(dims), DTYPES[m.group(2)]))
    return shapes


def time_independently(problem, kernel, defines, warmup, trials):
    import cupy as cp

    source, launches, options = cuda_candidate.read_kernel(kernel, defines)
    names = sorted({l["kernel"] for l in launches})
    module = cp.RawModule(code=source, options=("-std=c++17",) + tuple(options),
                          name_expressions=names)
    functions = {n: module.get_function(n) for n in names}
    for l in launches:
        if l["shared"] > 48 * 1024:
            functions[l["kernel"]].max_dynamic_shared_size_bytes = l["shared"]

    rng = cp.random.default_rng(1)
    buffers = []
    for shape, dtype in problem_shapes(problem):
        buffers.append(rng.random(shape, dtype="float32").astype(dtype))
    args = tuple(buffers)

    device = cp.cuda.Device()
    l2 = device.attributes["L2CacheSize"]
    flush = cp.empty(2 * l2, dtype=cp.uint8)
    stream = cp.cuda.Stream(non_blocking=True)
    start, stop = cp.cuda.Event(), cp.cuda.Event()

    def launch_all():
        for l in launches:
            functions[l["kernel"]](tuple(l["grid"]), tuple(l["block"]), args,
                                   shared_mem=l["shared"])

    samples = []
    with stream:
        for _ in range(warmup):
            launch_all()
        stream.synchronize()
        for _ in range(trials):
            cp.cuda.runtime.memsetAsync(flush.data.ptr, 0, flush.nbytes,
                                        stream.ptr)
            start.record(stream)
            launch_all()
            stop.record(stream)
            stop.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    return statistics.median(samples), len(samples), device.id, l2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stark-json", required=True)
    ap.add_argument("--problem", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("-D", dest="defines", action="append", metavar="NAME=VALUE")
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--trials", type=int, default=200)
    args = ap.parse_args()

    with open(args.stark_json) as f:
        result = json.load(f)
    if result.get("status") != "ok" or "timing" not in result:
        report(f"stark-eval did not time the candidate: {result.get('status')}: "
               f"{result.get('message')}")
        return 1
    stark = result["timing"]["candidate"]
    ours, n, device, l2 = time_independently(
        args.problem, args.kernel, cuda_candidate.parse_defines(args.defines),
        args.warmup, args.trials)
    diff = abs(stark["median_s"] - ours) / ours
    name = os.path.basename(args.kernel)
    report(f"{name}: stark-eval candidate median {stark['median_s'] * 1e6:.2f} us "
          f"({stark['trials']} trials, IQR/median {stark['relative_iqr']:.3f}); "
          f"independent CuPy median {ours * 1e6:.2f} us ({n} trials, CUDA events, "
          f"{2 * l2 >> 20} MiB L2 flush, device {device}); "
          f"difference {100 * diff:.1f}% (tolerance {100 * args.tolerance:.0f}%)")
    if diff > args.tolerance:
        report("timings disagree")
        return 1
    report("timings agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
