"""The model benchmark: each example model before stark (the upstream
lowering), after stark, and its PyTorch twin under eager, torch.compile
(default and max-autotune-no-cudagraphs) and a CUDA graph of eager.

  PYTHONPATH=python python3 -m stark.models --stark-bin build/bin --out DIR \\
      [--target cuda|cpu] [--names zoo|examples|vgg16|bert_base_b8,...] \\
      [--total-seconds S] [--budget N] [--autotune-limit S] \\
      [--no-torch | --no-stark] [--peers-from RESULTS.json]
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
3. the twin (bench/models/twins.py) runs, where torch imports, under
   eager, torch.compile (each compile alone after torch._dynamo.reset(),
   its graphs counted: stark.peers) and a CUDA graph of eager, and (the
   LLaMA blocks) the twin on torch's fused scaled_dot_product_attention,
   eager and as a CUDA graph (twins.SDPA), interleaved with the same
   protocol (stark.bench.time_interleaved); torch.compile
   with mode max-autotune-no-cudagraphs runs in a child process killed
   after --autotune-limit seconds. Beside each call time, the device time:
   the GPU activity torch.profiler records per call, or the replay of the
   CUDA graph; stark's is stark-eval's event time around the program on
   one stream (stark-eval reports no sum of kernel times).

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

from stark.peers import (best_peer, compile_note, compile_peer, cuda_graph,
                         geomean_of, kernel_seconds)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
MODELS_DIR = os.path.join(REPO, "examples", "models")
TWINS = os.path.join(REPO, "bench", "models", "twins.py")
# Targets: the example blocks at least as fast as torch eager; every zoo
# model at least as fast as its best torch peer, the zoo's geomean over the
# best peer at least ZOO_GEOMEAN.
TARGET_MODELS = ("transformer_layer", "resnet_block")
EXAMPLES = ("mlp_model", "resnet_block", "transformer_layer")
ZOO_GEOMEAN = 1.3
# The peers, in the order of the report's columns.
# sdpa, sdpa_graph: the twin with torch's fused scaled_dot_product_attention
# in place of the exported matmul / softmax chain (twins.SDPA), eager and as
# a CUDA graph.
PEERS = ("eager", "compile", "autotune", "cuda_graph", "sdpa", "sdpa_graph")
PEER_TITLES = {"eager": "eager", "compile": "torch.compile",
               "autotune": "max-autotune-no-cudagraphs",
               "cuda_graph": "CUDA graph", "sdpa": "SDPA (eager)",
               "sdpa_graph": "SDPA CUDA graph"}


def load_twins():
    spec = importlib.util.spec_from_file_location("stark_model_twins", TWINS)
    twins = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(twins)
    return twins


def family(name):
    """A zoo model's family: its name without the batch (`vgg16_b8` ->
    `vgg16`)."""
    head, _, tail = name.rpartition("_b")
    return head if head and tail.isdigit() else name


def selected(name, names):
    """--names: model names, families (vgg16, bert_base, ...), `zoo` (every
    model but the three example blocks) or `examples` (those three)."""
    if not names:
        return True
    group = "examples" if name in EXAMPLES else "zoo"
    return bool(names & {name, family(name), group})


def list_models(names=None):
    models = []
    for f in sorted(os.listdir(MODELS_DIR)):
        if not f.endswith(".mlir"):
            continue
        name = f[:-len(".mlir")]
        if not selected(name, names):
            continue
        with open(os.path.join(MODELS_DIR, f)) as fh:
            header = [l[3:].strip() for l in fh.read().splitlines()
                      if l.startswith("// ") and "generate.py" not in l][:2]
        models.append({"name": name, "file": os.path.join(MODELS_DIR, f),
                       "about": " ".join(header)})
    return models


def commands(args, model, work, graph=False):
    opt = os.path.join(work, model["name"] + ".opt.mlir")
    report = os.path.join(work, model["name"] + ".report.json")
    pipeline = (f"target={args.target} top-k={args.top_k} "
                f"budget={args.budget} seconds={args.seconds:g} "
                f"total-seconds={args.total_seconds:g} seed={args.seed} "
                f"workers-per-device={args.workers_per_device} "
                f"report={report}")
    if getattr(args, "pipeline_options", ""):
        pipeline += " " + args.pipeline_options
    bin_ = args.stark_bin or ""
    stark_opt = [os.path.join(bin_, "stark-opt"), model["file"],
                 f"--stark-pipeline={pipeline}", "-o", opt,
                 "--mlir-print-op-on-diagnostic=false"]
    stark_eval = [os.path.join(bin_, "stark-eval"), "--target", args.target,
                  "--problem", model["file"], "--candidate", opt, "--json",
                  "--correctness-trials",
                  "1" if graph else str(args.correctness_trials),
                  "--time-budget", str(args.time_budget),
                  "--timeout", str(args.eval_timeout)]
    if graph:
        stark_eval.append("--graph-host-programs")
    if args.no_f64_reference:
        stark_eval.append("--no-f64-reference")
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
            searched = json.load(f)
        row["summary"] = searched.get("summary")
        # The program's ops in no problem (lowered upstream) and why.
        row["left_upstream"] = searched.get("left_upstream", [])
    result = run_eval(stark_eval, log, row, "error")
    if result is None:
        return row
    row["verified"] = result.get("status") == "ok"
    row["eval_message"] = result.get("message")
    # The bounds the judge widened, and why (docs/evaluation.md): a reader
    # of the verdict should see them beside it.
    row["eval_flags"] = [f for f in result.get("flags") or []
                         if f.startswith("bound_from_")]
    read_times(result, row, "upstream_s", "stark_s")
    if args.target == "cuda" and not args.no_graph:
        run_graph(args, model, work, log, row)
    return row


def run_eval(command, log, row, error_key):
    """stark-eval's JSON result, or None with why in row[error_key]."""
    p = subprocess.run(command, capture_output=True, text=True)
    log.write(p.stderr)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        row[error_key] = "stark-eval printed no result: " + p.stderr[-400:]
        return None


def read_times(result, row, baseline_col, candidate_col):
    """The medians of a stark-eval result into the row's columns."""
    timing = result.get("timing") or {}
    for key, col in (("baseline", baseline_col), ("candidate", candidate_col)):
        if timing.get(key):
            row[col] = timing[key].get("median_s")


def run_graph(args, model, work, log, row):
    """Both programs timed again as CUDA graphs (stark-eval
    --graph-host-programs): each program's launches captured once and the
    graph replayed, as the CUDA-graph peer replays eager. The call times
    above include the host's launch of every kernel."""
    _, stark_eval, _, _ = commands(args, model, work, graph=True)
    result = run_eval(stark_eval, log, row, "graph_error")
    if result is None:
        return
    if result.get("status") != "ok":
        row["graph_error"] = f"{result.get('status')}: " \
            f"{(result.get('message') or '')[:300]}"
        return
    read_times(result, row, "upstream_graph_s", "stark_graph_s")


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
    sync = torch.cuda.synchronize if device == "cuda" else None
    checks = {}
    with torch.no_grad():
        eager = lambda: module(*inputs)
        fns = {"eager": eager}
        if not args.no_compile:
            rec, comp = compile_peer(torch, module, inputs, sync=sync)
            checks["compile"] = rec
            if comp is not None:
                fns["compile"] = lambda: comp(*inputs)
        if device == "cuda" and not args.no_cuda_graph:
            try:
                fns["cuda_graph"] = cuda_graph(torch, eager)
            except Exception as e:  # a failed capture is a result too
                row["cuda_graph_error"] = f"{type(e).__name__}: {e}"[:300]
        sdpa_twin = getattr(twins, "SDPA", {}).get(model["name"])
        if sdpa_twin and device == "cuda":
            fused, fused_inputs = sdpa_twin(torch, device)
            fns["sdpa"] = lambda: fused(*fused_inputs)
            if not args.no_cuda_graph:
                try:
                    fns["sdpa_graph"] = cuda_graph(torch, fns["sdpa"])
                except Exception as e:
                    row["sdpa_graph_error"] = f"{type(e).__name__}: {e}"[:300]
        names = list(fns)
        if device == "cuda":
            stats = time_interleaved(torch, [fns[n] for n in names])
        else:
            stats = [cpu_time(fns[n]) for n in names]
        for n, st in zip(names, stats):
            row[f"{n}_s"] = st["median_s"]
            row[f"{n}_spread"] = st.get("relative_iqr")
        if device == "cuda":
            for n in names:
                # A graph's replay is its device time: no host launch in it.
                row[f"{n}_device_s"] = (row[f"{n}_s"] if n.endswith("graph")
                                        else kernel_seconds(torch, fns[n]))
    del fns, module
    if device == "cuda" and not args.no_compile and args.autotune_limit > 0:
        checks["autotune"] = autotune_peer(args, model, row)
    row["compile_checks"] = checks
    choose_best_peer(row)


def choose_best_peer(row):
    """The least call time of the peers that count: a compile peer only
    where its check says `compiled`."""
    statuses = {k: v.get("status") for k, v in
                (row.get("compile_checks") or {}).items()}
    name, t = best_peer({p: row.get(f"{p}_s") for p in PEERS}, statuses)
    row["best_peer"], row["best_peer_s"] = name, t


def autotune_peer(args, model, row):
    """torch.compile(mode="max-autotune-no-cudagraphs") in a child process
    (python3 -m stark.models --peer-child), killed after
    --autotune-limit seconds: its compile record, and its times in `row`
    where it compiled."""
    cmd = [sys.executable, "-m", "stark.models", "--peer-child",
           model["name"], "--target", args.target]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(REPO, "python")] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=args.autotune_limit)
    except subprocess.TimeoutExpired:
        return {"mode": "max-autotune-no-cudagraphs", "timed_out": True,
                "status": "timeout",
                "compile_seconds": time.monotonic() - t0,
                "error": f"not compiled within {args.autotune_limit:g} s"}
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not lines:
        return {"mode": "max-autotune-no-cudagraphs", "status": "failed",
                "error": (p.stderr.strip() or "no result")[-400:]}
    res = json.loads(lines[-1])
    for k in ("autotune_s", "autotune_device_s", "autotune_spread"):
        if res.get(k) is not None:
            row[k] = res[k]
    return res["check"]


def peer_child(args):
    """--peer-child NAME: the max-autotune-no-cudagraphs peer of one model,
    alone in this process; prints one JSON line."""
    import torch
    from stark.bench import time_interleaved, torch_setup
    torch_setup(torch)
    twins = load_twins()
    module, inputs = twins.MODELS[args.peer_child](torch, "cuda")
    out = {}
    with torch.no_grad():
        rec, comp = compile_peer(torch, module, inputs,
                                 mode="max-autotune-no-cudagraphs",
                                 sync=torch.cuda.synchronize)
        out["check"] = rec
        if comp is not None:
            fn = lambda: comp(*inputs)
            st = time_interleaved(torch, [fn])[0]
            out["autotune_s"] = st["median_s"]
            out["autotune_spread"] = st.get("relative_iqr")
            out["autotune_device_s"] = kernel_seconds(torch, fn)
    print(json.dumps(out), flush=True)
    return 0


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
    if seconds >= 1:
        return f"{seconds:.3g} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} us"


def ratio(a, b):
    return a / b if a and b else None


def fmt_x(x):
    return "-" if x is None else f"{x:.2f}x"


def verdict_cell(row):
    """The verified column: yes (with the widened bounds it needed), no, or
    why there is no verdict."""
    if row.get("verified"):
        widened = [f[len("bound_from_"):].replace("_", " ")
                   for f in row.get("eval_flags") or []
                   if f != "bound_from_high_precision"]
        return "yes" + (f" ({', '.join(widened)})" if widened else "")
    return row.get("error", "no" if "verified" in row else "-")


def markdown(rows, header):
    out = [header, "",
           "Call time: CUDA events around one call of the whole model, L2 "
           "flushed before each, median, the peers interleaved. *best peer*: "
           "the least of the peers' call times (a compile counts only where "
           "its check says `compiled`). Device time: stark's is stark-eval's "
           "event time around the program; the torch peers' the GPU "
           "activity torch.profiler records per call (kernels, memsets, "
           "copies; not the launch gaps), the CUDA graph's its replay. "
           "*stark graph*: stark's program as a CUDA graph, its launches "
           "captured once and the graph replayed (stark-eval "
           "--graph-host-programs), as the CUDA-graph peer runs eager; "
           "the same event timing, L2 flushed.", "",
           "| model | upstream | stark | stark graph | eager | compile | "
           "max-autotune | CUDA graph | SDPA | SDPA graph | best peer | "
           "stark vs best peer | stark graph vs best peer | "
           "stark vs upstream | verified |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        up, st, best = r.get("upstream_s"), r.get("stark_s"), \
            r.get("best_peer_s")
        sg = r.get("stark_graph_s")
        out.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | "
                   "{} | {} | {} | {} |"
                   .format(r["model"], fmt(up), fmt(st),
                           fmt(sg) if "graph_error" not in r else "failed",
                           fmt(r.get("eager_s")),
                           fmt(r.get("compile_s")), fmt(r.get("autotune_s")),
                           fmt(r.get("cuda_graph_s")), fmt(r.get("sdpa_s")),
                           fmt(r.get("sdpa_graph_s")),
                           f"{r['best_peer']} {fmt(best)}"
                           if r.get("best_peer") else "-",
                           fmt_x(ratio(best, st)), fmt_x(ratio(best, sg)),
                           fmt_x(ratio(up, st)), verdict_cell(r)))
    out += ["", "Device time per call and the compile checks (each compile "
            "alone after `torch._dynamo.reset()`, graphs counted by the "
            "backend; compile seconds include the first call):", "",
            "| model | stark (events) | stark graph replay | "
            "upstream graph replay | eager kernels | compile kernels | "
            "max-autotune kernels | CUDA graph replay | SDPA kernels | "
            "SDPA graph replay | torch.compile | max-autotune |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ch = r.get("compile_checks") or {}
        out.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} "
                   "| {} |".format(
            r["model"], fmt(r.get("stark_s")),
            fmt(r.get("stark_graph_s")) if "graph_error" not in r
            else r["graph_error"][:60],
            fmt(r.get("upstream_graph_s")), fmt(r.get("eager_device_s")),
            fmt(r.get("compile_device_s")), fmt(r.get("autotune_device_s")),
            fmt(r.get("cuda_graph_device_s")), fmt(r.get("sdpa_device_s")),
            fmt(r.get("sdpa_graph_device_s")),
            compile_note(ch.get("compile")), compile_note(ch.get("autotune"))))
    for r in rows:
        if r["model"] in TARGET_MODELS and r.get("stark_s") and r.get("eager_s"):
            ok = r["eager_s"] / r["stark_s"] >= 1.0
            out.append(f"\n**{'met' if ok else 'missed'}**: {r['model']} "
                       f"whole-model time vs torch eager: "
                       f"{r['eager_s'] / r['stark_s']:.2f}x (goal >= 1.00x)")
    zoo = [r for r in rows if r["model"] not in EXAMPLES]
    for col, what in (("stark_s", "stark's program as called"),
                      ("stark_graph_s", "stark's program as a CUDA graph")):
        out += zoo_goals(zoo, col, what)
    return "\n".join(out) + "\n"


def zoo_goals(zoo, col, what):
    """The zoo's goal lines for stark's time in `col` (`what` it is):
    every model at most its best peer's time, and the geomean."""
    timed = [r for r in zoo if r.get(col) and r.get("best_peer_s")]
    if not timed:
        return []
    slower = [r["model"] for r in timed if r["best_peer_s"] / r[col] < 1.0]
    g = geomean_of([r["best_peer_s"] / r[col] for r in timed])
    return [f"\n**{'missed' if slower else 'met'}**: {what}, every zoo "
            f"model at most its best peer's time: "
            f"{len(timed) - len(slower)} of {len(timed)}" +
            (f" (slower: {', '.join(slower)})" if slower else ""),
            f"\n**{'met' if g >= ZOO_GEOMEAN else 'missed'}**: {what}, zoo "
            f"geomean vs the best peer: {g:.2f}x (goal >= "
            f"{ZOO_GEOMEAN:.2f}x, {len(timed)} of {len(zoo)} timed)"]


TORCH_FIELDS = tuple(f"{p}_{k}" for p in PEERS
                     for k in ("s", "spread", "device_s")) + (
    "compile_checks", "cuda_graph_error", "sdpa_graph_error", "torch",
    "torch_error")


def merge_peers(rows, path):
    """--peers-from: the torch fields of each model's row in an earlier
    results file (the peers timed in another run)."""
    with open(path) as f:
        old = {r["model"]: r for r in json.load(f)["rows"]}
    for r in rows:
        src = old.get(r["model"], {})
        for k in TORCH_FIELDS:
            if k in src:
                r[k] = src[k]
        choose_best_peer(r)


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
    ap.add_argument("--pipeline-options", default="",
                    help="more --stark-pipeline options, appended as given "
                         "(e.g. precompile=false)")
    ap.add_argument("--workers-per-device", type=int, default=None,
                    help="evaluation workers of the search (stark-search "
                    "workers-per-device): candidates compile on the host "
                    "while another is timed (default: 3 on cuda, 1 on cpu)")
    ap.add_argument("--correctness-trials", type=int, default=2)
    ap.add_argument("--time-budget", type=float, default=2.0,
                    help="stark-eval's timing budget per model")
    ap.add_argument("--eval-timeout", type=float, default=300)
    ap.add_argument("--no-f64-reference", action="store_true",
                    help="judge the whole model by its upstream f32 run alone "
                         "(by default an f64 run of the model judges it "
                         "too: an f32 baseline that rounds badly, as a layer "
                         "norm of constant rows does, cannot fail a right "
                         "model)")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-stark", action="store_true",
                    help="time the torch peers only (their rows can be "
                    "merged into a stark run with --peers-from)")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-cuda-graph", action="store_true")
    ap.add_argument("--no-graph", action="store_true",
                    help="skip the second stark-eval run that times both "
                         "programs as CUDA graphs (--graph-host-programs)")
    ap.add_argument("--autotune-limit", type=float, default=180,
                    help="seconds torch.compile(mode=max-autotune-no-"
                    "cudagraphs) may take per model, in a child process "
                    "(0: not run)")
    ap.add_argument("--peers-from", metavar="RESULTS_JSON",
                    help="take the torch peers' fields from an earlier "
                    "results file instead of timing them")
    ap.add_argument("--peer-child", help=argparse.SUPPRESS)
    ap.add_argument("--list", action="store_true",
                    help="list the models and exit")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the commands each model would run and exit")
    args = ap.parse_args(argv)
    if args.workers_per_device is None:
        # Three workers overlap the host's compiles with the GPU's timing;
        # the cpu target's workers share the cores the candidates time on.
        args.workers_per_device = 3 if args.target == "cuda" else 1
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.peer_child:
        return peer_child(args)
    names = set(args.names.split(",")) if args.names else None
    models = list_models(names)
    if names:
        known = {m["name"] for m in list_models()}
        words = known | {family(n) for n in known} | {"zoo", "examples"}
        if names - words:
            print(f"unknown model(s): {', '.join(sorted(names - words))}",
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
            if not args.no_torch and not args.peers_from:
                print(f"  torch: bench/models/twins.py {m['name']} "
                      f"({', '.join(peer_list(args))})")
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
            row = ({"model": m["name"]} if args.no_stark
                   else run_stark(args, m, work, log))
            if not args.no_torch and not args.peers_from:
                try:
                    run_torch(args, m, row)
                except Exception as e:  # a twin failing is a result too
                    row["torch_error"] = f"{type(e).__name__}: {e}"
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    if args.peers_from:
        merge_peers(rows, args.peers_from)
    stamp = datetime.date.today().isoformat()
    result = {"date": stamp, "target": args.target, "label": label,
              "options": vars(args), "rows": rows}
    with open(os.path.join(work, f"models-{label}.json"), "w") as f:
        json.dump(result, f, indent=2)
    md = markdown(rows, f"# Example models on {label} ({stamp})")
    with open(os.path.join(work, f"models-{label}.md"), "w") as f:
        f.write(md)
    print(md)
    return 0 if args.no_stark or all(r.get("verified") for r in rows) else 1


def peer_list(args):
    peers = ["eager"]
    if not args.no_compile:
        peers.append("torch.compile")
        if args.target == "cuda" and args.autotune_limit > 0:
            peers.append(f"max-autotune-no-cudagraphs (limit "
                         f"{args.autotune_limit:g} s)")
    if args.target == "cuda" and not args.no_cuda_graph:
        peers.append("CUDA graph")
    return peers


if __name__ == "__main__":
    sys.exit(main())
