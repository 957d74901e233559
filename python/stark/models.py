"""The model benchmark: each example model before stark (the upstream
lowering), after stark, and its PyTorch twin under eager and torch.compile.

  PYTHONPATH=python python3 -m stark.models --stark-bin build/bin --out DIR \\
      [--target cuda|cpu] [--names transformer_layer,resnet_block] \\
      [--total-seconds S] [--budget N]
  PYTHONPATH=python python3 -m stark.models --list
  PYTHONPATH=python python3 -m stark.models --dry-run --out DIR

Per model (examples/models/*.mlir, written by examples/models/generate.py):

1. stark-opt runs --stark-pipeline over the whole model (total-seconds
   split across its hot ops by share) and writes model.opt.mlir and the
   search report;
2. stark-eval takes the model as problem and model.opt.mlir as candidate
   (both bufferized the same way): it verifies the optimised model against
   the original and times both, interleaved, L2 flushed, median: the
   "upstream" and "stark" columns;
3. the twin (bench/models/twins.py) runs under eager and torch.compile with
   the same protocol (stark.bench.time_interleaved) where torch imports.

Results: DIR/models-<label>.json and .md. Standard library only, plus torch
(optional).
"""

import argparse
import datetime
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
MODELS_DIR = os.path.join(REPO, "examples", "models")
TWINS = os.path.join(REPO, "bench", "models", "twins.py")
# The target the issue sets: whole-model time at least torch eager's.
TARGET_MODELS = ("transformer_layer", "resnet_block")


def load_twins():
    spec = importlib.util.spec_from_file_location("stark_model_twins", TWINS)
    twins = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(twins)
    return twins


def list_models(names=None):
    models = []
    for f in sorted(os.listdir(MODELS_DIR)):
        if not f.endswith(".mlir"):
            continue
        name = f[:-len(".mlir")]
        if names and name not in names:
            continue
        with open(os.path.join(MODELS_DIR, f)) as fh:
            header = [l[3:].strip() for l in fh.read().splitlines()
                      if l.startswith("// ") and "generate.py" not in l][:2]
        models.append({"name": name, "file": os.path.join(MODELS_DIR, f),
                       "about": " ".join(header)})
    return models


def commands(args, model, work):
    opt = os.path.join(work, model["name"] + ".opt.mlir")
    report = os.path.join(work, model["name"] + ".report.json")
    pipeline = (f"target={args.target} top-k={args.top_k} "
                f"budget={args.budget} seconds={args.seconds:g} "
                f"total-seconds={args.total_seconds:g} seed={args.seed} "
                f"report={report}")
    bin_ = args.stark_bin or ""
    stark_opt = [os.path.join(bin_, "stark-opt"), model["file"],
                 f"--stark-pipeline={pipeline}", "-o", opt,
                 "--mlir-print-op-on-diagnostic=false"]
    stark_eval = [os.path.join(bin_, "stark-eval"), "--target", args.target,
                  "--problem", model["file"], "--candidate", opt, "--json",
                  "--correctness-trials", str(args.correctness_trials),
                  "--no-f64-reference", "--time-budget", str(args.time_budget),
                  "--timeout", str(args.eval_timeout)]
    return stark_opt, stark_eval, opt, report


def run_stark(args, model, work, log):
    stark_opt, stark_eval, opt, report = commands(args, model, work)
    row = {"model": model["name"]}
    t0 = time.monotonic()
    p = subprocess.run(stark_opt, capture_output=True, text=True)
    row["search_seconds"] = time.monotonic() - t0
    log.write(p.stderr)
    if p.returncode != 0:
        row["error"] = "stark-opt failed: " + p.stderr.strip()[-400:]
        return row
    if os.path.exists(report):
        with open(report) as f:
            row["summary"] = json.load(f).get("summary")
    p = subprocess.run(stark_eval, capture_output=True, text=True)
    log.write(p.stderr)
    try:
        result = json.loads(p.stdout)
    except json.JSONDecodeError:
        row["error"] = "stark-eval printed no result: " + p.stderr[-400:]
        return row
    row["verified"] = result.get("status") == "ok"
    row["eval_message"] = result.get("message")
    timing = result.get("timing") or {}
    for key, col in (("baseline", "upstream_s"), ("candidate", "stark_s")):
        if timing.get(key):
            row[col] = timing[key].get("median_s")
    return row


def run_torch(args, model, row):
    try:
        import torch
    except ImportError:
        row["torch"] = "torch does not import"
        return
    from stark.bench import time_interleaved, torch_setup
    device = "cuda" if args.target == "cuda" else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        row["torch"] = "no CUDA device"
        return
    torch_setup(torch)
    twins = load_twins()
    module, inputs = twins.MODELS[model["name"]](torch, device)
    with torch.no_grad():
        eager = lambda: module(*inputs)
        fns = [eager]
        if not args.no_compile:
            compiled_module = torch.compile(module)
            compiled = lambda: compiled_module(*inputs)
            for _ in range(3):
                compiled()
            fns.append(compiled)
        if device == "cuda":
            stats = time_interleaved(torch, fns)
        else:
            stats = [cpu_time(fn) for fn in fns]
    row["eager_s"] = stats[0]["median_s"]
    if len(stats) > 1:
        row["compile_s"] = stats[1]["median_s"]


def cpu_time(fn, runs=10):
    for _ in range(2):
        fn()
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    samples.sort()
    return {"median_s": samples[len(samples) // 2]}


def fmt(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} us"


def markdown(rows, header):
    out = [header, "",
           "| model | upstream | stark | eager | compile | stark vs upstream"
           " | stark vs eager | verified |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        up, st, ea = r.get("upstream_s"), r.get("stark_s"), r.get("eager_s")
        out.append("| {} | {} | {} | {} | {} | {} | {} | {} |".format(
            r["model"], fmt(up), fmt(st), fmt(ea), fmt(r.get("compile_s")),
            f"{up / st:.2f}x" if up and st else "-",
            f"{ea / st:.2f}x" if ea and st else "-",
            "yes" if r.get("verified") else r.get("error", "no")))
    for r in rows:
        if r["model"] in TARGET_MODELS and r.get("stark_s") and r.get("eager_s"):
            ok = r["eager_s"] / r["stark_s"] >= 1.0
            out.append(f"\n**{'met' if ok else 'missed'}**: {r['model']} "
                       f"whole-model time vs torch eager: "
                       f"{r['eager_s'] / r['stark_s']:.2f}x (goal >= 1.00x)")
    return "\n".join(out) + "\n"


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="python3 -m stark.models",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--stark-bin", help="folder with stark-opt and stark-eval")
    ap.add_argument("--out", help="output folder")
    ap.add_argument("--names", help="comma-separated model names")
    ap.add_argument("--target", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--label", default=None,
                    help="results name suffix (default: h200 on cuda, cpu)")
    ap.add_argument("--top-k", type=int, default=0,
                    help="hot ops to search (0: all; an op left to the "
                    "upstream lowering costs far more than its roofline "
                    "estimate on the GPU)")
    ap.add_argument("--budget", type=int, default=4,
                    help="candidates per searched problem")
    ap.add_argument("--seconds", type=float, default=60,
                    help="most seconds one problem's search may take")
    ap.add_argument("--total-seconds", type=float, default=150,
                    help="search budget of one model, split by share")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--correctness-trials", type=int, default=2)
    ap.add_argument("--time-budget", type=float, default=2.0,
                    help="stark-eval's timing budget per model")
    ap.add_argument("--eval-timeout", type=float, default=300)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--list", action="store_true",
                    help="list the models and exit")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the commands each model would run and exit")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    names = set(args.names.split(",")) if args.names else None
    models = list_models(names)
    if names and len(models) != len(names):
        known = {m["name"] for m in list_models()}
        print(f"unknown model(s): {', '.join(sorted(names - known))}",
              file=sys.stderr)
        return 2
    twins = load_twins()
    if args.list:
        for m in models:
            twin = "twin" if m["name"] in twins.MODELS else "NO TWIN"
            print(f"{m['name']}: {m['about']} ({twin})")
        return 0
    work = args.out or "."
    if args.dry_run:
        for m in models:
            stark_opt, stark_eval, _, _ = commands(args, m, work)
            print(f"{m['name']}:")
            print("  " + shlex.join(stark_opt))
            print("  " + shlex.join(stark_eval))
            if not args.no_torch:
                print(f"  torch: bench/models/twins.py {m['name']} "
                      f"(eager{'' if args.no_compile else ', torch.compile'})")
        return 0
    if not args.out:
        print("--out is required", file=sys.stderr)
        return 2
    os.makedirs(work, exist_ok=True)
    label = args.label or ("h200" if args.target == "cuda" else "cpu")
    rows = []
    with open(os.path.join(work, f"models-{label}.log"), "w") as log:
        for m in models:
            print(f"== {m['name']}", file=sys.stderr, flush=True)
            row = run_stark(args, m, work, log)
            if not args.no_torch:
                try:
                    run_torch(args, m, row)
                except Exception as e:  # a twin failing is a result too
                    row["torch_error"] = f"{type(e).__name__}: {e}"
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    stamp = datetime.date.today().isoformat()
    result = {"date": stamp, "target": args.target, "label": label,
              "options": vars(args), "rows": rows}
    with open(os.path.join(work, f"models-{label}.json"), "w") as f:
        json.dump(result, f, indent=2)
    md = markdown(rows, f"# Example models on {label} ({stamp})")
    with open(os.path.join(work, f"models-{label}.md"), "w") as f:
        f.write(md)
    print(md)
    return 0 if all(r.get("verified") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
