"""The core benchmark: the search end to end on a few large problems.

For each problem of bench/core/, the upstream baseline and stark's winner
(from one stark-opt --stark-pipeline run with the expert agents, verified by
the evaluator), and torch eager on the same shapes, timed with CUDA events
around the kernels, the L2 flushed before every run, median of many runs.
The suite of many problems is stark.bench; this is its slow, deep sibling.

Usage (on the GPU machine, after unpacking the bundle to /tmp/stark):
  PYTHONPATH=python python3 -m stark.core --stark-bin /tmp/stark/bin \
      --out $OUT [--only NAME]
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CORE_PROBLEMS = os.path.join(REPO, "bench", "core")

# name -> (file, stark-pipeline options, torch builder)
PROBLEMS = {
    "matmul_4096_f32": ("matmul_4096_f32.mlir",
                        "budget=1 seconds=60 trials=2 timing-trials=3 timeout=270",
                        "matmul"),
    "row_sum_16384x2048_f32": ("row_sum_16384x2048_f32.mlir",
                               "budget=6 seconds=60 trials=3 timing-trials=10 timeout=60",
                               "row_sum"),
    "swish_bias_8192_f32": ("swish_bias_8192_f32.mlir",
                            "budget=4 seconds=150 trials=3 timing-trials=10 timeout=150",
                            "swish_bias"),
    "softmax_8192_f32": ("softmax_8192_f32.mlir",
                         "budget=1 seconds=60 trials=2 timing-trials=10 timeout=125",
                         "softmax"),
    # Three linalg ops fused into one problem (the layernorm template).
    "layernorm_8192x8192_f32": ("layernorm_8192x8192_f32.mlir",
                                "budget=1 seconds=60 trials=2 timing-trials=10 timeout=125",
                                "layernorm"),
}


def torch_case(kind):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(0)
    if kind == "matmul":
        a = torch.rand(4096, 4096, device=dev, generator=g)
        b = torch.rand(4096, 4096, device=dev, generator=g)
        c = torch.rand(4096, 4096, device=dev, generator=g)
        return lambda: torch.addmm(c, a, b)
    if kind == "row_sum":
        x = torch.rand(16384, 2048, device=dev, generator=g)
        init = torch.rand(16384, device=dev, generator=g)
        return lambda: init + x.sum(1)
    if kind == "swish_bias":
        x = torch.rand(8192, 8192, device=dev, generator=g)
        b = torch.rand(8192, device=dev, generator=g)
        return lambda: x * torch.sigmoid(x) * 1.702 + b
    if kind == "softmax":
        x = torch.rand(8192, 8192, device=dev, generator=g)
        return lambda: torch.softmax(x, dim=1)
    if kind == "layernorm":
        x = torch.rand(8192, 8192, device=dev, generator=g)
        gamma = torch.rand(8192, device=dev, generator=g)
        beta = torch.rand(8192, device=dev, generator=g)
        return lambda: torch.nn.functional.layer_norm(x, (8192,), gamma, beta, 1e-5)
    raise ValueError(kind)


def time_torch(fn, runs=50, warmup=5):
    import torch
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(runs):
        flush.zero_()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) / 1e3)
    samples.sort()
    n = len(samples)
    return {"median": samples[n // 2], "min": samples[0],
            "max": samples[-1], "q1": samples[n // 4],
            "q3": samples[(3 * n) // 4], "runs": n}


def fmt(s):
    if s is None:
        return "-"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.1f} us"


def main():
    ap = argparse.ArgumentParser(prog="python3 -m stark.core",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--stark-bin", "--bin", dest="bin", required=True,
                    help="folder with stark-opt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", action="append")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results = []
    for name, (file, opts, kind) in PROBLEMS.items():
        if args.only and name not in args.only:
            continue
        path = os.path.join(CORE_PROBLEMS, file)
        report = os.path.join(args.out, name + ".json")
        cmd = [os.path.join(args.bin, "stark-opt"), path,
               f"--stark-pipeline=target=cuda top-k=1 seed=0 report={report} {opts}",
               "-o", os.path.join(args.out, name + ".out.mlir"),
               "--mlir-print-op-on-diagnostic=false"]
        t0 = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        search_s = time.time() - t0
        print(f"== {name}: stark-opt rc={proc.returncode} in {search_s:.1f} s",
              flush=True)
        print("\n".join(l for l in proc.stderr.splitlines()
                        if "remark" in l or "error" in l), flush=True)
        entry = {"name": name, "command": " ".join(cmd),
                 "search_seconds": search_s, "rc": proc.returncode}
        try:
            with open(report) as f:
                rep = json.load(f)
            p = rep["problems"][0]
            entry["baseline_seconds"] = p.get("baseline_seconds")
            nodes = {n["id"]: n for n in p.get("nodes", [])}
            w = nodes.get(p.get("winner"))
            entry["stop_reason"] = p.get("stop_reason")
            entry["skipped"] = p.get("skipped")
            entry["nodes"] = [{k: n.get(k) for k in
                               ("id", "parent", "strategy", "params", "status",
                                "speedup", "seconds", "failure")}
                              for n in p.get("nodes", [])]
            if w:
                entry["winner"] = {"strategy": w["strategy"],
                                   "params": w["params"],
                                   "seconds": w["seconds"],
                                   "speedup_vs_baseline": w["speedup"]}
        except (OSError, ValueError, KeyError, IndexError) as e:
            entry["report_error"] = str(e)
        try:
            entry["torch_eager"] = time_torch(torch_case(kind))
        except Exception as e:  # report, do not hide
            entry["torch_error"] = repr(e)
        results.append(entry)
        print(json.dumps({k: v for k, v in entry.items() if k != "nodes"},
                         indent=1), flush=True)

    lines = ["| problem | upstream baseline | stark winner | vs baseline | "
             "torch eager | winner / torch | strategy |",
             "|---|---|---|---|---|---|---|"]
    for e in results:
        w = e.get("winner")
        t = e.get("torch_eager", {}).get("median")
        ratio = (w["seconds"] / t) if (w and t) else None
        lines.append("| {} | {} | {} | {} | {} | {} | {} |".format(
            e["name"], fmt(e.get("baseline_seconds")),
            fmt(w["seconds"]) if w else "-",
            f"{w['speedup_vs_baseline']:.1f}x" if w else "-",
            fmt(t), f"{ratio:.2f}" if ratio else "-",
            (w["strategy"] + " " + " ".join(
                f"{k}={v}" for k, v in w["params"].items())) if w else
            (e.get("skipped") or "no verified winner")))
    table = "\n".join(lines)
    print(table)
    stamp = datetime.date.today().isoformat()
    with open(os.path.join(args.out, f"core-{stamp}-h200.json"), "w") as f:
        json.dump({"date": stamp, "argv": sys.argv, "results": results}, f,
                  indent=1)
    with open(os.path.join(args.out, f"core-{stamp}-h200.md"), "w") as f:
        f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
