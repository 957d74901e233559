"""The benchmark suite: stark against the upstream lowering, PyTorch eager,
torch.compile and the roofline, on the problems of bench/problems/.

  PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin \\
      --out $OUT/bench [--set reduced|full] [--names A,B|--only REGEX] \\
      [--budget N] [--seconds S] [--jobs J]
  PYTHONPATH=python python3 -m stark.bench --set full --names conv --list

--set full runs the problems at KernelBench's own shapes, with bf16 twins
(bench/problems/full); --names picks problems by name, group or category so
that a set splits over device calls (the full set's groups: gemm,
gemm_bf16, gemv, conv, elementwise, softmax, norm, reduce, pool, fused and
the *_bf16 ones; bench/problems/full/README.md lists them).

One run, four phases (docs/benchmarks.md):

1. search (parallel, --jobs processes): per problem file, stark-opt runs the
   passes of --stark-pipeline (hot ops with top-k=0, outline into a folder,
   search with the expert agents) and writes its report and IR. Meanwhile
   this process checks every torch twin against its plain-Python reference
   on small shapes, and a helper process compiles the twins with
   torch.compile (CPU work that fills the inductor cache).
2. torch (serial, the GPU to itself): eager and torch.compile with
   stark-eval's protocol (warm-up, a 256 MB buffer written before each run,
   CUDA events, median, interleaved), and the copy bandwidth. Each twin is
   compiled alone after torch._dynamo.reset(), its graphs counted
   (stark.peers.compile_peer); one that produced no graph, recompiled or
   failed is recorded as such and has no torch.compile time.
3. re-time (serial): every problem stark searched is timed again with
   stark-eval, the winner against the baseline (or the baseline against
   itself where there is no winner): verified first, then timed,
   interleaved, L2 flushed, median.
4. results: <out>/<date>-<label>.json, .md, .png (chart, when matplotlib
   imports); the tables are python/stark/benchreport.py's.

Standard library only, plus torch (optional) and matplotlib (optional).
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
import traceback

from stark.benchreport import (contraction_summary, fmt_x, summarize,
                               write_chart, write_markdown)
from stark.peers import compile_note, compile_peer

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DEFAULT_PROBLEMS = os.path.join(REPO, "bench", "problems")
HEADER = "// stark-bench: "

SETS = {"reduced": DEFAULT_PROBLEMS,
        "full": os.path.join(DEFAULT_PROBLEMS, "full")}

FLUSH_BYTES = 256 << 20  # >= 2x the H200's 60 MB L2


# ---------------------------------------------------------------------------
# Problems
# ---------------------------------------------------------------------------

def name_filter(names):
    """--names: problem names, groups or categories (level1, fused),
    comma-separated; a problem is kept when any of them names it. Groups:
    the header's `group`, in the reduced set gemm, gemm_bf16, gemv, conv
    or other; in the full set also elementwise, softmax, norm, reduce, pool
    and fused for the rest, a bf16 problem's with `_bf16`."""
    wanted = {n.strip() for n in names.split(",") if n.strip()}
    return lambda meta: bool(wanted & {meta["name"], meta.get("group"),
                                       meta.get("category")})


def unmatched_names(names, problems):
    """The --names entries that name none of the problems."""
    seen = set()
    for m in problems:
        seen |= {m["name"], m.get("group"), m.get("category")}
    return [n.strip() for n in names.split(",")
            if n.strip() and n.strip() not in seen]


def load_problems(folder, only=None, names=None):
    rx = re.compile(only) if only else None
    keep = name_filter(names) if names else None
    out, every = [], []
    for fname in sorted(os.listdir(folder)):
        if not fname.endswith(".mlir"):
            continue
        path = os.path.join(folder, fname)
        with open(path) as f:
            first = f.readline()
        if not first.startswith(HEADER):
            raise SystemExit(f"{path}: no '{HEADER.strip()}' header line")
        meta = json.loads(first[len(HEADER):])
        every.append(meta)
        if rx and not rx.search(meta["name"]):
            continue
        if keep and not keep(meta):
            continue
        meta["path"] = path
        out.append(meta)
    if names:
        for n in unmatched_names(names, every):
            print(f"warning: --names {n}: no problem, group or category of "
                  f"that name in {folder}", file=sys.stderr)
    return out


def load_twins(folder):
    if not os.path.exists(os.path.join(folder, "twins.py")):
        folder = DEFAULT_PROBLEMS
    sys.path.insert(0, folder)
    try:
        import twins  # bench/problems/twins.py
    finally:
        sys.path.pop(0)
    return twins


# ---------------------------------------------------------------------------
# Reading stark-opt's output
# ---------------------------------------------------------------------------

# The body of a flat #stark.* attribute: strings (which may hold '>', as in
# shapes = "4xf32->4xf32") and anything but angle brackets.
_BODY = r'(?:"(?:[^"\\]|\\.)*"|[^<>"])*'
_ATTR_RE = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|[^,{}]+?)(?: : \w+)?(?=, |$)')


def parse_dict(text):
    """The flat fields of an attribute body (`a = 1, b = "x"`), as Python."""
    out = {}
    for key, val in _ATTR_RE.findall(text):
        val = val.strip()
        if val.startswith('"'):
            out[key] = val[1:-1]
        else:
            try:
                out[key] = float(val) if any(c in val for c in ".eE") \
                    else int(val)
            except ValueError:
                out[key] = val
    return out


def braced(text, start):
    """End (exclusive) of the {...} opening at text[start], skipping strings."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def parse_output_ir(text):
    """Ops with their cost and problem, and the problem modules (with the
    winner module's text where there is one)."""
    ops = []
    first = re.search(r"^\s*module @stark_problem_", text, re.M)
    program = text[:first.start()] if first else text
    for line in program.splitlines():
        m = re.search(r"stark\.cost = #stark\.cost<(" + _BODY + r")>", line)
        if not m or line.lstrip().startswith("module"):
            continue
        op = re.search(r"(?:=\s*)?([a-z_]+\.[a-z_0-9.]+)", line)
        p = re.search(r"stark\.problem = @(\w+)", line)
        cost = parse_dict(m.group(1))
        ops.append({"op": op.group(1) if op else "?",
                    "problem": p.group(1) if p else None, "cost": cost})
    problems = {}
    for m in re.finditer(r"module @(stark_problem_\d+) attributes \{", text):
        sym = m.group(1)
        attr_end = braced(text, m.end() - 1)
        attrs = text[m.end() - 1:attr_end]
        pm = re.search(r"stark\.problem = #stark\.problem<(" + _BODY + r")>",
                       attrs)
        info = parse_dict(pm.group(1)) if pm else {}
        body_start = text.index("{", attr_end)
        body_end = braced(text, body_start)
        body = text[body_start:body_end]
        winner = None
        w = re.search(r"module @winner\b", body)
        if w and "stark.winner" in attrs:
            s = text.index("{", body_start + w.end())
            if text[body_start + w.end():s].strip() == "attributes":
                s = text.index("{", braced(text, s))
            winner = "module " + text[s:braced(text, s)] + "\n"
        problems[sym] = {"info": info, "winner_ir": winner}
    return ops, problems


# ---------------------------------------------------------------------------
# Phase 1: searches
# ---------------------------------------------------------------------------

def search_command(args, meta, work):
    tgt = args.target
    search = (f"target={tgt} agent=expert budget={args.budget} "
              f"seconds={args.seconds} seed={args.seed} "
              f"timeout={args.timeout} trials={args.trials} "
              f"timing-trials={args.timing_trials} progress=0 "
              f"workers-per-device={args.workers_per_device} "
              f"screen={'false' if args.no_screen else 'true'} "
              f"report={os.path.join(work, 'report.json')}")
    return [os.path.join(args.stark_bin, "stark-opt"), meta["path"],
            f"--stark-hot-ops=profile={args.profile} top-k=0",
            # As --stark-pipeline: a contraction's epilogue is fused for
            # cuda only (the cpu target has no kernel for the pair).
            f"--stark-outline=dir={os.path.join(work, 'problems')} "
            f"fuse-epilogues={'true' if tgt == 'cuda' else 'false'} "
            f"profile={args.profile} "
            f"compare-unfused={'true' if args.compare_unfused else 'false'} "
            f"fuse-conv-epilogues="
            f"{'true' if args.fuse_conv_epilogues else 'false'}",
            f"--stark-search={search}",
            "-o", os.path.join(work, "out.mlir"),
            "--mlir-print-op-on-diagnostic=false"]


def run_search(args, meta, deadline):
    work = os.path.join(args.out, "work", meta["name"])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "problems"))
    cmd = search_command(args, meta, work)
    entry = {"command": " ".join(shlex.quote(c) for c in cmd), "work": work}
    if deadline - time.monotonic() < 10.0:
        # A search started now would be killed before it could finish.
        entry.update({"rc": None, "seconds": 0.0, "ops": [], "problems": {},
                      "report": None, "remarks": [],
                      "error": "not started: the deadline came first"})
        return entry
    limit = min(args.search_limit, deadline - time.monotonic())
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=limit)
        entry["rc"] = proc.returncode
        stderr = proc.stderr
    except subprocess.TimeoutExpired as e:
        entry["rc"] = None
        entry["error"] = f"stark-opt killed after {limit:.0f} s"
        stderr = (e.stderr or b"").decode(errors="replace") \
            if isinstance(e.stderr, bytes) else (e.stderr or "")
    entry["seconds"] = time.monotonic() - t0
    with open(os.path.join(work, "stderr.txt"), "w") as f:
        f.write(stderr)
    entry["remarks"] = [l for l in stderr.splitlines()
                        if "remark:" in l or "error:" in l][:40]
    try:
        with open(os.path.join(work, "report.json")) as f:
            entry["report"] = json.load(f)
    except (OSError, ValueError) as e:
        entry.setdefault("error", f"no search report: {e}")
        entry["report"] = None
    try:
        with open(os.path.join(work, "out.mlir")) as f:
            ops, problems = parse_output_ir(f.read())
    except (OSError, ValueError) as e:
        entry.setdefault("error", f"no output IR: {e}")
        ops, problems = [], {}
    entry["ops"] = ops
    entry["problems"] = {}
    reports = {p["problem"]: p for p in
               (entry["report"] or {}).get("problems", [])}
    for sym, pm in problems.items():
        rep = reports.get(sym, {})
        sig = pm["info"].get("signature") or rep.get("signature")
        item = {"signature": sig, "op": rep.get("op", pm["info"].get("op")),
                "shapes": rep.get("shapes"),
                "fused_ops": int(pm["info"].get("fused_ops", 1) or 1),
                "problem_file": os.path.join(work, "problems", f"{sig}.mlir"),
                "baseline_seconds": rep.get("baseline_seconds"),
                "candidates": rep.get("candidates"),
                "stop_reason": rep.get("stop_reason"),
                "skipped": rep.get("skipped"),
                "outcome": rep.get("outcome"), "why": rep.get("why"),
                "unfused": rep.get("unfused")}
        nodes = {n["id"]: n for n in rep.get("nodes", [])}
        win = nodes.get(rep.get("winner"))
        if win and pm["winner_ir"]:
            path = os.path.join(work, f"winner-{sig}.mlir")
            with open(path, "w") as f:
                f.write(pm["winner_ir"])
            item["winner"] = {"strategy": win.get("strategy"),
                              "params": win.get("params"),
                              "seconds": win.get("seconds"),
                              "speedup": win.get("speedup"), "file": path}
        item["nodes"] = [{k: n.get(k) for k in
                          ("id", "parent", "strategy", "params", "status",
                           "seconds", "speedup", "failure")}
                         for n in rep.get("nodes", [])]
        entry["problems"][sym] = item
    return entry


# ---------------------------------------------------------------------------
# Phase 2: re-timing with stark-eval
# ---------------------------------------------------------------------------

def retime(args, item):
    cand = item.get("winner", {}).get("file") or item["problem_file"]
    cmd = [os.path.join(args.stark_bin, "stark-eval"),
           "--problem", item["problem_file"], "--candidate", cand,
           "--target", args.target, "--json", f"--seed={args.seed}",
           f"--timeout={max(1, int(args.timeout))}",
           f"--correctness-trials={args.retime_correctness_trials}",
           "--extra-trials=2", f"--trials={args.timing_trials}",
           "--max-trials=100", "--warmup=3"]
    res = {"command": " ".join(shlex.quote(c) for c in cmd),
           "of": "winner" if "winner" in item else "baseline"}
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=args.timeout + 30)
        out = json.loads(proc.stdout)
    except (subprocess.TimeoutExpired, ValueError) as e:
        res.update(status="error", message=f"stark-eval: {e!r}")
        return res
    finally:
        res["seconds"] = time.monotonic() - t0
    res["status"] = out.get("status")
    res["message"] = out.get("message")
    timing = out.get("timing") or {}
    b, c = timing.get("baseline") or {}, timing.get("candidate") or {}
    res["baseline_s"] = b.get("median_s")
    res["candidate_s"] = c.get("median_s")
    res["baseline_spread"] = b.get("relative_iqr")
    res["candidate_spread"] = c.get("relative_iqr")
    res["trials"] = c.get("trials")
    res["flags"] = out.get("flags")
    return res


def _members(item):
    """How many ops of the program other than fills one occurrence of a
    problem stands for: the ops of `fused(a,b,c)`, the op of
    `linalg.fill + linalg.matmul` (a problem that owns its output's fill);
    0 for a fill outlined alone."""
    op = (item or {}).get("op") or ""
    names = op[len("fused("):-1].split(",") if op.startswith("fused(") \
        else op.split(" + ")
    return sum(1 for n in names if n.strip() != "linalg.fill")


def stark_totals(entry):
    """The program's time as stark leaves it: each outlined op by its
    winner, else by its baseline. Problems shared by several ops (same
    signature) count once per op, a fused problem once per group."""
    ops = entry["ops"]
    missing = [o["op"] for o in ops if not o["problem"]]
    # Occurrences count the ops other than fills: a fill tagged with a
    # problem of other ops (a chain that rebuilds it, a contraction or
    # reduction that owns it) goes with them, and the hot-op ranking gives
    # an owned fill no cost line of its own. A fill outlined alone counts.
    counts = {}
    for o in ops:
        if o["problem"]:
            counts.setdefault(o["problem"], 0)
            if o["op"] != "linalg.fill" or \
                    not _members(entry["problems"].get(o["problem"])):
                counts[o["problem"]] += 1
    total = base = search_total = search_base = 0.0
    complete, retimed, winners = not missing, True, 0
    for sym, n in counts.items():
        item = entry["problems"].get(sym)
        if not item:
            complete = False
            continue
        occ = n / max(1, _members(item))
        rt = item.get("retime") or {}
        if rt.get("status") == "ok" and rt.get("candidate_s"):
            t = rt["candidate_s"] if "winner" in item else rt["baseline_s"]
            b = rt["baseline_s"]
        else:
            retimed = False
            b = item.get("baseline_seconds")
            t = item["winner"]["seconds"] if "winner" in item else b
        if t is None or b is None:
            complete = False
            continue
        winners += "winner" in item
        total += occ * t
        base += occ * b
    roof = sum(o["cost"].get("time_us", 0.0) for o in ops) * 1e-6
    nbytes = sum(o["cost"].get("bytes", 0) for o in ops)
    flops = sum(o["cost"].get("flops", 0) for o in ops)
    bound = sorted({o["cost"].get("bound") for o in ops})
    return {"time_s": total if complete else None,
            "baseline_s": base if complete else None,
            "complete": complete, "retimed": retimed,
            "not_outlined": missing, "ops": len(ops),
            "problems": len(counts), "winners": winners,
            "roofline_s": roof or None, "bytes": nbytes, "flops": flops,
            "bound": bound}


def timed_fields(tot, eager, comp):
    """The fields of a problem's result row that follow from stark's total
    time `tot` (stark_totals) and the peers' times."""
    s = tot["time_s"]
    return {"upstream_s": tot["baseline_s"], "stark_s": s,
            "speedup_vs_eager": eager / s if s and eager else None,
            "speedup_vs_compile": comp / s if s and comp else None,
            "speedup_vs_upstream":
                tot["baseline_s"] / s if s and tot["baseline_s"] else None,
            "roofline_s": tot["roofline_s"],
            "roofline_fraction":
                tot["roofline_s"] / s if s and tot["roofline_s"] else None,
            "retimed": tot["retimed"], "winners": tot["winners"],
            "stark_problems": tot["problems"], "ops": tot["ops"]}


def recount_main(path):
    """Recomputes a results file's totals from the searches and re-timings
    it stores (after a change to stark_totals), its summary and goals, and
    writes it and its markdown again."""
    with open(path) as f:
        doc = json.load(f)
    for r in doc["problems"]:
        r.update(timed_fields(stark_totals(r["search"]), r.get("eager_s"),
                              r.get("compile_s")))
    doc["summary"], doc["goals"] = summarize(doc["problems"],
                                             doc.get("copy_bandwidth"))
    doc["contractions"] = contraction_summary(doc["problems"])
    doc["recounted"] = (f"{datetime.date.today().isoformat()}: totals "
                        "recomputed from the stored re-timings by "
                        "python3 -m stark.bench --recount")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, default=str)
    write_markdown(os.path.splitext(path)[0] + ".md", doc)
    print(f"recounted {path}")


# ---------------------------------------------------------------------------
# torch: twin checks, timing
# ---------------------------------------------------------------------------

def import_torch():
    try:
        import torch
        return torch
    except Exception:  # absent or broken: the suite runs without it
        return None


def twin_check(twins, meta):
    """The torch twin against the plain-Python reference, float64 on the
    CPU, on the problem's small check shapes."""
    import torch
    refs = twins.check_inputs(meta)
    d, p = meta["check"]["dims"], meta["params"]
    got = twins.TWINS[meta["twin"]](
        *[torch.tensor(r.data, dtype=torch.float64).reshape(r.shape)
          for r in refs], d=d, p=p)
    exp = twins.REFS[meta["twin"]](*refs, d=d, p=p)
    got_list = got.reshape(-1).tolist()
    if list(got.shape) != exp.shape:
        return {"status": "wrong",
                "message": f"shape {list(got.shape)} != {exp.shape}"}
    worst = 0.0
    for g, e in zip(got_list, exp.data):
        err = abs(g - e) / (1e-9 + 1e-9 * abs(e))
        worst = max(worst, err)
    return {"status": "ok" if worst <= 1.0 else "wrong",
            "worst_over_allowed": worst, "elements": len(exp.data),
            "tolerance": "1e-9 abs + 1e-9 rel, float64"}


def torch_setup(torch):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


TORCH_DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}


def torch_inputs(torch, meta, seed=0):
    """torch.rand in each argument's own type, as KernelBench does (in f32
    for its f32 problems; bf16 twins draw in bf16 directly)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    return [torch.rand(a["shape"], device="cuda", generator=g,
                       dtype=getattr(torch, TORCH_DTYPES[a["dtype"]]))
            for a in meta["args"]]


def time_interleaved(torch, fns, min_runs=10, max_runs=100, budget_s=2.0,
                     spread=0.02, warmup=3):
    """stark-eval's protocol for torch callables: warm-up, then rounds of
    one timed run of each, the L2 flushed (a 256 MB buffer written) before
    every run, CUDA events around the call only; at least min_runs, stop
    once every IQR/median <= spread or budget_s is spent."""
    flush = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device="cuda")
    for fn in fns:
        for _ in range(warmup):
            fn()
    torch.cuda.synchronize()
    samples = [[] for _ in fns]
    t0 = time.monotonic()
    while True:
        for i, fn in enumerate(fns):
            flush.zero_()
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            b.synchronize()
            samples[i].append(a.elapsed_time(b) * 1e-3)
        n = len(samples[0])
        if n >= max_runs:
            break
        if n >= min_runs:
            if all(stats(s)["relative_iqr"] <= spread for s in samples):
                break
            if time.monotonic() - t0 >= budget_s:
                break
    return [stats(s) for s in samples]


def stats(s):
    s = sorted(s)
    n = len(s)
    med = statistics.median(s)
    q1, q3 = s[n // 4], s[(3 * n) // 4]
    return {"median_s": med, "min_s": s[0], "max_s": s[-1], "q1_s": q1,
            "q3_s": q3, "relative_iqr": (q3 - q1) / med if med else 0.0,
            "trials": n}


def twin_call(twins, meta):
    """The problem's twin as a callable of its inputs. Every twin is called
    through this one wrapper, so Dynamo sees one code object for all of
    them: a compile must reset it first (stark.peers.compile_peer)."""
    fn = twins.TWINS[meta["twin"]]
    d, p = meta["dims"], meta["params"]

    def call(*xs):
        return fn(*xs, d=d, p=p)
    return call


def torch_time(torch, twins, meta, with_compile):
    """Eager and, where it compiles to a graph, torch.compile of one twin,
    interleaved. The compile's record (status, graphs, compile seconds)
    goes in `compile_check`; a compile that produced no graph, recompiled
    or failed has no `compile` time (it is not a torch.compile peer)."""
    res = {}
    xs = torch_inputs(torch, meta)
    eager = twin_call(twins, meta)
    fns = [lambda: eager(*xs)]
    if with_compile:
        rec, comp = compile_peer(torch, eager, xs,
                                 sync=torch.cuda.synchronize)
        res["compile_check"] = rec
        res["compile_seconds"] = rec["compile_seconds"]
        if comp is not None:
            fns.append(lambda: comp(*xs))
        else:
            res["compile_error"] = compile_note(rec)
    timings = time_interleaved(torch, fns)
    res["eager"] = timings[0]
    if len(timings) > 1:
        res["compile"] = timings[1]
    return res


# Copies timed for the bandwidth: the largest is the goal's reference; the
# smaller ones tell what a copy of a problem's own size reaches (short
# kernels lose their ramp-up and tail to the launch).
COPY_SIZES = (16 << 20, 64 << 20, 256 << 20, 1 << 30)


def copy_bandwidth(torch):
    by_size = []
    for n in COPY_SIZES:
        src = torch.empty(n, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        t = time_interleaved(torch, [lambda: dst.copy_(src)])[0]
        by_size.append({"bytes": 2 * n, "median_s": t["median_s"],
                        "bytes_per_s": 2 * n / t["median_s"]})
        del src, dst
    return dict(by_size[-1], by_size=by_size)


def list_problems(args):
    """--list: one line per selected problem, to plan device calls."""
    problems = load_problems(args.problems, args.only, args.names)
    for m in problems:
        host = m.get("host") or {}
        peak = host.get("trial_peak_bytes")
        shapes = ", ".join("x".join(map(str, a["shape"])) for a in m["args"])
        gflop = "-" if not m.get("flops") else f"{m['flops'] / 1e9:.1f}"
        peak = "-" if peak is None else f"{peak / 1e9:.1f}"
        print(f"{m['name']} {m.get('group', '-')} {m.get('dtype', 'f32')} "
              f"[{shapes}] GFLOP {gflop} peak host GB {peak}")
    print(f"{len(problems)} problems")
    return 0


def warm_compile_main(args):
    """Helper process of phase 1: torch.compile every twin once, so the
    serial phase finds the inductor cache warm."""
    torch = import_torch()
    if torch is None or not torch.cuda.is_available():
        return 0
    torch_setup(torch)
    twins = load_twins(args.problems)
    for meta in load_problems(args.problems, args.only, args.names):
        try:
            xs = torch_inputs(torch, meta)
            rec, _ = compile_peer(torch, twin_call(twins, meta), xs,
                                  sync=torch.cuda.synchronize, repeat=0)
            print(f"warm: {meta['name']}: {compile_note(rec)}", flush=True)
        except Exception as e:
            print(f"warm: {meta['name']}: {e!r}", flush=True)
    return 0


def versions(args, torch):
    v = {"python": platform.python_version()}
    try:
        v["stark-opt"] = subprocess.run(
            [os.path.join(args.stark_bin, "stark-opt"), "--version"],
            capture_output=True, text=True, timeout=30).stdout.strip(
        ).replace("\n", " ")
    except Exception as e:
        v["stark-opt"] = repr(e)
    info = os.path.join(os.path.dirname(os.path.abspath(args.stark_bin)),
                        "BUILD-INFO")
    if os.path.exists(info):
        with open(info) as f:
            v["bundle"] = " / ".join(l.strip() for l in f.readlines()[:3])
    try:
        v["git"] = subprocess.run(["git", "-C", REPO, "describe", "--always",
                                   "--dirty"], capture_output=True, text=True,
                                  timeout=10).stdout.strip() or "-"
    except Exception:
        v["git"] = "-"
    if shutil.which("nvidia-smi"):
        v["gpu"] = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                                  text=True).stdout.strip()
    if torch is not None:
        v["torch"] = torch.__version__
        try:
            import triton
            v["triton"] = triton.__version__
        except Exception:
            pass
    return v


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(prog="python3 -m stark.bench",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--stark-bin", help="folder with stark-opt and stark-eval")
    ap.add_argument("--set", choices=sorted(SETS), default="reduced",
                    help="reduced: the suite's shapes (bench/problems); full:"
                    " KernelBench's own shapes, with bf16 twins "
                    "(bench/problems/full)")
    ap.add_argument("--problems", default=None,
                    help="a folder of problem files (default: the --set's)")
    ap.add_argument("--only", help="regular expression on problem names")
    ap.add_argument("--names", help="comma-separated problem names, groups "
                    "(the headers' `group`: gemm, gemm_bf16, gemv, conv, "
                    "other; in the full set elementwise, softmax, norm, "
                    "reduce, pool, fused and their _bf16 forms instead of "
                    "other) or categories (level1, fused)")
    ap.add_argument("--out", help="output folder")
    ap.add_argument("--label", default=None,
                    help="results file name suffix (default: h200 on cuda, "
                    "cpu otherwise; -full added for --set full)")
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--target", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--profile", default=None,
                    help="hardware profile (default h200 on cuda, host on cpu)")
    ap.add_argument("--compare-unfused", action="store_true",
                    help="also search each op of a fused chain alone and keep "
                    "the chain's kernel only where it is faster "
                    "(stark-outline compare-unfused)")
    ap.add_argument("--fuse-conv-epilogues",
                    action=argparse.BooleanOptionalAction, default=True,
                    help="outline a convolution with the element-wise ops "
                    "after it as one problem (stark-outline "
                    "fuse-conv-epilogues, the default; the conv family "
                    "computes them in its store stage)")
    ap.add_argument("--budget", type=int, default=3,
                    help="candidates per searched problem")
    ap.add_argument("--seconds", type=float, default=30,
                    help="search wall-clock budget per searched problem")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds one candidate evaluation may take (in the "
                    "search, plus the problem's own evaluation time; in the "
                    "re-time, stark-eval's worker limit)")
    ap.add_argument("--trials", type=int, default=5,
                    help="correctness trials per candidate in the search")
    ap.add_argument("--timing-trials", type=int, default=10)
    ap.add_argument("--retime-correctness-trials", type=int, default=1,
                    help="correctness trials when re-timing (the search "
                    "already verified the winner on --trials)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int,
                    default=max(1, min(12, (os.cpu_count() or 2) - 2)),
                    help="searches in parallel")
    ap.add_argument("--workers-per-device", type=int, default=1,
                    help="evaluation workers of each search (stark-search "
                    "workers-per-device): candidates compile on the host "
                    "while another is timed")
    ap.add_argument("--search-limit", type=float, default=240,
                    help="kill one problem's stark-opt after this many s")
    ap.add_argument("--deadline", type=float, default=540,
                    help="seconds from the start after which no new work "
                    "starts (results are still written)")
    ap.add_argument("--no-screen", action="store_true",
                    help="verify every candidate in full (stark-search "
                         "screen=false), not only those fast enough to win")
    ap.add_argument("--no-retime", action="store_true",
                    help="report the searches' own timings")
    ap.add_argument("--retime-seconds", type=float, default=6,
                    help="expected seconds of one problem's re-time: the "
                    "searches stop early enough to re-time every problem "
                    "(at most a third of the deadline is kept back)")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--recount", metavar="RESULTS_JSON",
                    help="recompute the totals, summary and goals of a "
                    "results file from the searches and re-timings it "
                    "stores, and write it and its .md again")
    ap.add_argument("--list", action="store_true",
                    help="print the selected problems (size, FLOP, host "
                    "memory) and exit")
    ap.add_argument("--warm-compile", action="store_true",
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.problems = args.problems or SETS[args.set]
    if args.warm_compile or args.list or args.recount:
        return args
    if not args.stark_bin or not args.out:
        ap.error("--stark-bin and --out are required")
    args.profile = args.profile or ("h200" if args.target == "cuda"
                                    else "host")
    args.label = args.label or (("h200" if args.target == "cuda" else "cpu")
                                + ("-full" if args.set == "full" else ""))
    return args


def evaluation_seconds(report):
    """The wall time of each candidate judged in a search report. Reports
    with `problem_wall_seconds` list the candidates alone in `wall_seconds`;
    older ones listed every evaluation, the problem's own first (left out;
    their retimes and sanitizer runs cannot be told apart)."""
    seconds = []
    for p in (report or {}).get("problems", []):
        evaluations = p.get("evaluations") or {}
        walls = evaluations.get("wall_seconds") or []
        if "problem_wall_seconds" not in evaluations:
            walls = walls[1:]
        seconds += [w for w in walls if w]
    return seconds


def torch_reserve(deadline_seconds, problems, torch_on):
    """Seconds of the deadline kept back for the torch peers' phase, so that
    a suite cut short by its deadline still times the peers of what it
    searched: a copy-bandwidth sweep, then each twin (about half a second
    each on the H200, torch.compile warmed up beside the searches); at most
    a third of the deadline."""
    if not torch_on:
        return 0.0
    return min(deadline_seconds / 3, 10.0 + 0.5 * problems)


def retime_reserve(deadline_seconds, problems, seconds_each, retime_on):
    """Seconds of the deadline kept back for re-timing every searched
    problem alone on the device (the searches run side by side, so their
    own timings are contended): the expected seconds of one re-time for
    each suite problem, at most a third of the deadline; nothing when
    re-timing is off."""
    if not retime_on:
        return 0.0
    return min(deadline_seconds / 3, float(seconds_each) * problems)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.recount:
        return recount_main(args.recount)
    if args.warm_compile:
        return warm_compile_main(args)
    if args.list:
        return list_problems(args)
    start = time.monotonic()
    deadline = start + args.deadline
    os.makedirs(args.out, exist_ok=True)
    problems = load_problems(args.problems, args.only, args.names)
    if not problems:
        raise SystemExit("no problem matches")
    twins = load_twins(args.problems)
    torch = None if args.no_torch else import_torch()
    use_cuda_torch = bool(torch is not None and args.target == "cuda" and
                          torch.cuda.is_available())
    phases = {}
    log = lambda m: print(f"[{time.monotonic() - start:6.1f} s] {m}",
                          flush=True)
    log(f"{len(problems)} problems, {args.jobs} parallel searches, "
        f"torch {'on ' + ('cuda' if use_cuda_torch else 'cpu (checks only)') if torch else 'off'}")

    # Phase 1: searches in parallel; twin checks and compile warm-up beside.
    warm = None
    if use_cuda_torch and not args.no_compile:
        warm_cmd = [sys.executable, "-m", "stark.bench", "--warm-compile",
                    "--problems", args.problems] + (
                        ["--only", args.only] if args.only else []) + (
                        ["--names", args.names] if args.names else [])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.join(REPO, "python")] +
            ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        warm = subprocess.Popen(warm_cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, env=env)
    searches = {}
    t0 = time.monotonic()
    search_deadline = (
        deadline
        - torch_reserve(args.deadline, len(problems), use_cuda_torch)
        - retime_reserve(args.deadline, len(problems), args.retime_seconds,
                         not args.no_retime))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(run_search, args, m, search_deadline): m
                for m in problems}
        checks = {}
        for m in problems:
            if torch is None:
                checks[m["name"]] = {"status": "skipped",
                                     "message": "torch not available"}
                continue
            try:
                checks[m["name"]] = twin_check(twins, m)
            except Exception as e:
                checks[m["name"]] = {"status": "error", "message": repr(e)}
        log("twin checks: " + ", ".join(
            f"{k} {sum(1 for c in checks.values() if c['status'] == k)}"
            for k in ("ok", "wrong", "error", "skipped")))
        for fut in concurrent.futures.as_completed(futs):
            m = futs[fut]
            try:
                searches[m["name"]] = fut.result()
            except Exception:
                searches[m["name"]] = {"error": traceback.format_exc(),
                                       "ops": [], "problems": {}}
            e = searches[m["name"]]
            log(f"searched {m['name']}: rc={e.get('rc')} "
                f"{e.get('seconds', 0):.0f} s, {len(e['problems'])} "
                f"problems, {sum('winner' in p for p in e['problems'].values())}"
                f" winners{' ' + e['error'] if e.get('error') else ''}")
    warm_log = None
    if warm is not None:
        try:
            warm_log, _ = warm.communicate(
                timeout=max(1, deadline - time.monotonic() - 120))
        except subprocess.TimeoutExpired:
            warm.kill()
            warm_log = "killed: the deadline came first"
    phases["search"] = time.monotonic() - t0

    # Phase 2: torch, serially (its numbers matter most: first).
    t0 = time.monotonic()
    tres, copy_bw = {}, None
    if use_cuda_torch:
        torch_setup(torch)
        try:
            copy_bw = copy_bandwidth(torch)
        except Exception as e:
            log(f"copy bandwidth: {e!r}")
        for m in problems:
            if time.monotonic() > deadline:
                tres[m["name"]] = {"error": "deadline"}
                continue
            try:
                tres[m["name"]] = torch_time(torch, twins, m,
                                             not args.no_compile)
            except Exception as e:
                tres[m["name"]] = {"error": repr(e)[:500]}
            torch.cuda.empty_cache()
        log("torch timed")
    phases["torch"] = time.monotonic() - t0

    # Phase 3: re-time serially; past the deadline the search timings stand.
    t0 = time.monotonic()
    if not args.no_retime:
        for m in problems:
            for sym, item in searches[m["name"]]["problems"].items():
                if time.monotonic() > deadline - 20:
                    item["retime"] = {"status": "skipped",
                                      "message": "deadline"}
                    continue
                if not os.path.exists(item["problem_file"]):
                    continue
                item["retime"] = retime(args, item)
        log("re-timed")
    phases["retime"] = time.monotonic() - t0

    # Phase 4: results.
    results = []
    for m in problems:
        e = searches[m["name"]]
        tot = stark_totals(e)
        t = tres.get(m["name"], {})
        eager = (t.get("eager") or {}).get("median_s")
        comp = (t.get("compile") or {}).get("median_s")
        notes = []
        if e.get("error"):
            notes.append(e["error"].splitlines()[-1][:120])
        if tot["not_outlined"]:
            notes.append("not outlined: " + ", ".join(tot["not_outlined"]))
        for sym, item in e["problems"].items():
            rt = item.get("retime") or {}
            if item.get("skipped"):
                notes.append(f"{item['op']}: {item['skipped'][:100]}")
            elif rt and rt.get("status") not in ("ok", None):
                notes.append(f"{item['op']} re-time {rt.get('status')}: "
                             f"{(rt.get('message') or '')[:100]}")
        if t.get("error"):
            notes.append(f"torch: {t['error'][:100]}")
        if t.get("compile_error"):
            notes.append(f"torch.compile: {t['compile_error'][:100]}")
        winners = []
        for sym, item in e["problems"].items():
            w = item.get("winner")
            if w:
                rt = item.get("retime") or {}
                sp = (rt["baseline_s"] / rt["candidate_s"]
                      if rt.get("status") == "ok" and rt.get("candidate_s")
                      else w.get("speedup"))
                winners.append(
                    f"{item['op']} {item.get('shapes')}: {w['strategy']} " +
                    " ".join(f"{k}={v}" for k, v in
                             (w.get("params") or {}).items()) +
                    f" ({fmt_x(sp)} over upstream)")
        results.append({
            "name": m["name"], "category": m["category"], "twin": m["twin"],
            "dtype": m.get("dtype", "f32"), "group": m.get("group"),
            "set": m.get("set", "reduced"),
            "file": os.path.relpath(m["path"], REPO),
            "args": m["args"], "dims": m["dims"],
            "kernelbench": m.get("kernelbench"),
            "scaled_down": m.get("scaled_down"),
            "eager_s": eager, "compile_s": comp, **timed_fields(tot, eager, comp),
            # The header's count (2 per multiply-add, from the shapes) where
            # it has one; else what stark's cost model says the ops do.
            "bytes": tot["bytes"], "flops": m.get("flops") or tot["flops"],
            "bound": tot["bound"], "search_seconds": e.get("seconds"),
            "evaluation_seconds": evaluation_seconds(e.get("report")),
            "compile_check": t.get("compile_check"),
            "search": e, "torch": t, "twin_check": checks.get(m["name"]),
            "winner_list": winners, "notes": notes})
    summary, goals = summarize(results, copy_bw)
    stem = os.path.join(args.out, f"{args.date}-{args.label}")
    chart_note = write_chart(stem + ".png", results)
    phases["total"] = time.monotonic() - start
    doc = {"date": args.date, "label": args.label,
           "command": "PYTHONPATH=python python3 -m stark.bench " +
                      " ".join(shlex.quote(a) for a in argv),
           "versions": versions(args, torch),
           "settings": {k: getattr(args, k) for k in (
               "set", "target", "profile", "budget", "seconds", "timeout",
               "trials", "timing_trials", "retime_correctness_trials", "seed",
               "jobs", "no_retime", "retime_seconds", "no_compile",
               "compare_unfused",
               "fuse_conv_epilogues", "workers_per_device", "no_screen")},
           "copy_bandwidth": copy_bw, "phases": phases, "summary": summary,
           "contractions": contraction_summary(results),
           "goals": goals, "problems": results, "chart_note": chart_note,
           "warm_compile_log": (warm_log or "")[-4000:]}
    with open(stem + ".json", "w") as f:
        json.dump(doc, f, indent=1, default=str)
    write_markdown(stem + ".md", doc)
    log(f"wrote {stem}.json, .md" + ("" if chart_note else ", .png"))
    for g in goals:
        print(("met:    " if g["met"] else "missed: ") + g["text"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
