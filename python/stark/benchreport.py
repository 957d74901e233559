"""The benchmark suite's results: summary, goals, the markdown tables and the
chart, from the per-problem rows `python3 -m stark.bench` collects.

  PYTHONPATH=python python3 -m stark.benchreport RESULTS.json [-o OUT.md]

writes the markdown of a results file again (summary and goals recomputed
from its rows), e.g. after a change to the tables. Standard library only,
plus matplotlib (optional) for the chart.
"""

import argparse
import json
import math
import statistics
import sys

from stark.peers import best_peer, compile_note

# Goals of the suite (the issues that asked for them), checked against results.
GOAL_FAST1 = {"level1": 0.60, "fused": 0.80}
GOAL_GEOMEAN = {"level1": 1.0, "fused": 1.5}
GOAL_GEMM_VS_CUBLAS = 0.80
GOAL_BF16_VS_CUBLAS = 0.70
GOAL_CONV_VS_CUDNN = 1.0
GOAL_COPY_BW = 0.80
GEMM_TWINS = {"matmul", "matmul_t", "bmm", "tensor3_matmul"}
CONV_TWINS = {"conv2d", "conv2d_depthwise", "conv1d"}

# The contraction groups with a row in the TFLOP/s table, and what torch
# eager runs for them with TF32 off.
PEER_LIBRARY = {"gemm": "cuBLAS", "gemm_bf16": "cuBLAS", "gemv": "cuBLAS",
                "conv": "cuDNN"}


def group(r):
    """A row's family: its header's `group`, else (results written before
    the header had one) derived from the twin as bench/problems/gen.py
    does."""
    if r.get("group"):
        return r["group"]
    dtype = r.get("dtype") or "f32"
    if r.get("twin") in GEMM_TWINS:
        return "gemm" if dtype == "f32" else "gemm_" + dtype
    if r.get("twin") == "matvec":
        return "gemv"
    if r.get("twin") in CONV_TWINS:
        return "conv"
    return "other"


def tflops(flops, seconds):
    """FLOP over seconds, in TFLOP/s; None where either is missing."""
    if not flops or not seconds:
        return None
    return flops / seconds / 1e12


def contraction_rows(results):
    """One row per GEMM, GEMV or convolution problem with a FLOP count:
    TFLOP/s of stark, eager, torch.compile and the better of the two, and
    stark's share of the vendor library (eager time / stark time)."""
    rows = []
    for r in results:
        g = group(r)
        if g not in PEER_LIBRARY or not r.get("flops"):
            continue
        stark, eager, comp = r.get("stark_s"), r.get("eager_s"), \
            r.get("compile_s")
        best_name, best = best_peer({"eager": eager, "compile": comp})
        rows.append({
            "name": r["name"], "group": g, "set": r.get("set") or "reduced",
            "dtype": r.get("dtype") or "f32", "flops": r["flops"],
            "stark_s": stark, "eager_s": eager, "compile_s": comp,
            "best_peer": best_name,
            "stark_tflops": tflops(r["flops"], stark),
            "eager_tflops": tflops(r["flops"], eager),
            "compile_tflops": tflops(r["flops"], comp),
            "best_peer_tflops": tflops(r["flops"], best),
            "of_library": eager / stark if eager and stark else None,
            "library": PEER_LIBRARY[g]})
    return rows


# ---------------------------------------------------------------------------
# Summary and goals
# ---------------------------------------------------------------------------

def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n} B"


def copy_bandwidth_at(copy_bw, nbytes):
    """The copy bandwidth at `nbytes` moved, interpolated in log(bytes)
    between the measured copies (clamped at both ends); None without them."""
    pts = sorted((p["bytes"], p["bytes_per_s"])
                 for p in (copy_bw or {}).get("by_size", []))
    if not pts or not nbytes:
        return None
    if nbytes <= pts[0][0]:
        return pts[0][1]
    for (b0, v0), (b1, v1) in zip(pts, pts[1:]):
        if nbytes <= b1:
            w = (math.log(nbytes) - math.log(b0)) / (math.log(b1) -
                                                     math.log(b0))
            return v0 + w * (v1 - v0)
    return pts[-1][1]


def fmt_seconds(value):
    return "-" if value is None else f"{value:.2f}"


def median_evaluation(rows):
    """Median wall time of one evaluated candidate over `rows`' searches."""
    walls = [w for r in rows for w in (r.get("evaluation_seconds") or [])]
    return statistics.median(walls) if walls else None


def throughput_line(doc):
    """Candidates evaluated per second of the search phase, over every
    search at once: the median above is each evaluation's own wall time,
    which searches that share one GPU stretch while they wait for it."""
    count = sum(len(r.get("evaluation_seconds") or [])
                for r in doc.get("problems", []))
    search = doc.get("phases", {}).get("search")
    if not count or not search:
        return None
    opts = doc.get("settings", {})
    return (f"Throughput: {count} candidates evaluated in {search:.0f} s of "
            f"search ({opts.get('jobs', '?')} searches at once, "
            f"{opts.get('workers_per_device', 1)} worker(s) each): "
            f"{search / count:.2f} s of wall time per evaluated candidate.")


def summarize(results, copy_bw):
    summary, goals = {}, []
    for cat in ("level1", "fused"):
        rows = [r for r in results if r["category"] == cat]
        if not rows:
            continue
        vs_eager = [r["speedup_vs_eager"] for r in rows
                    if r.get("speedup_vs_eager")]
        vs_comp = [r["speedup_vs_compile"] for r in rows
                   if r.get("speedup_vs_compile")]
        fast1 = sum(1 for r in rows if (r.get("speedup_vs_eager") or 0) > 1.0)
        roof = [r["roofline_fraction"] for r in rows
                if r.get("roofline_fraction")]
        search = [r["search_seconds"] for r in rows
                  if r.get("search_seconds") is not None]
        s = {"problems": len(rows),
             "with_stark_time": sum(1 for r in rows if r.get("stark_s")),
             "with_eager_time": len(vs_eager),
             "fast_1_vs_eager": fast1 / len(rows),
             "fast_1_vs_compile": sum(
                 1 for r in rows if (r.get("speedup_vs_compile") or 0) > 1.0)
             / len(rows),
             "geomean_vs_eager": geomean(vs_eager),
             "geomean_vs_compile": geomean(vs_comp),
             "geomean_vs_upstream": geomean(
                 [r.get("speedup_vs_upstream") for r in rows]),
             "median_roofline_fraction":
                 statistics.median(roof) if roof else None,
             "mean_search_seconds":
                 statistics.mean(search) if search else None,
             "median_evaluation_seconds": median_evaluation(rows),
             "total_search_seconds": sum(search)}
        summary[cat] = s
        if vs_eager:
            goals.append(goal(f"fast_1 vs eager, {cat}", s["fast_1_vs_eager"],
                              GOAL_FAST1[cat], pct=True))
            goals.append(goal(f"geomean speedup vs eager, {cat}",
                              s["geomean_vs_eager"], GOAL_GEOMEAN[cat]))
    rows = contraction_rows(results)
    for g, text, target in (
            ("gemm", "fp32 GEMM vs cuBLAS (torch eager)", GOAL_GEMM_VS_CUBLAS),
            ("gemm_bf16", "bf16 GEMM vs cuBLAS bf16 (torch eager)",
             GOAL_BF16_VS_CUBLAS)):
        done = [c for c in rows if c["group"] == g and c["of_library"]]
        if done:
            goals.append(goal(
                f"{text}, geomean of {len(done)}",
                geomean([c["of_library"] for c in done]), target, pct=True,
                detail=", ".join(f"{c['name']} {c['of_library']:.0%}"
                                 for c in done)))
    conv = [c for c in rows if c["group"] == "conv" and c["of_library"]]
    if conv:
        goals.append(goal(
            f"every convolution vs cuDNN (torch eager), the least of "
            f"{len(conv)}", min(c["of_library"] for c in conv),
            GOAL_CONV_VS_CUDNN,
            detail=", ".join(f"{c['name']} {c['of_library']:.2f}x"
                             for c in conv)))
    if copy_bw:
        mem = [r for r in results if r.get("bound") == ["memory"] and
               r.get("stark_s")]
        fr = [r["bytes"] / r["stark_s"] / copy_bw["bytes_per_s"] for r in mem]
        for r, f in zip(mem, fr):
            r["copy_bandwidth_fraction"] = f
        same = []
        for r in mem:
            bw = copy_bandwidth_at(copy_bw, r["bytes"])
            if bw:
                r["same_size_copy_fraction"] = r["bytes"] / r["stark_s"] / bw
                same.append(r["same_size_copy_fraction"])

        def reaching(fs):
            return (f"{sum(f >= GOAL_COPY_BW for f in fs)} of {len(fs)} "
                    f"at or above {GOAL_COPY_BW:.0%}")
        if fr:
            detail = reaching(fr)
            if len(same) == len(fr):
                detail += (
                    f"; against a torch copy of the same bytes "
                    f"(interpolated between copies of "
                    f"{fmt_bytes(copy_bw['by_size'][0]['bytes'])} .. "
                    f"{fmt_bytes(copy_bw['by_size'][-1]['bytes'])}): "
                    f"geomean {geomean(same):.0%}, {reaching(same)}")
            goals.append(goal(
                f"memory-bound problems vs copy bandwidth, geomean of "
                f"{len(fr)}", geomean(fr), GOAL_COPY_BW, pct=True,
                detail=detail))
    return summary, goals


def goal(name, value, target, pct=False, detail=None):
    fmt = (lambda v: f"{v:.0%}") if pct else (lambda v: f"{v:.2f}x")
    return {"goal": name, "value": value, "target": target,
            "met": value is not None and value >= target,
            "text": f"{name}: {fmt(value) if value is not None else '-'} "
                    f"(goal {'>=' } {fmt(target)})",
            "detail": detail}


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

def fmt_s(s):
    if s is None:
        return "-"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} us"


def fmt_x(x):
    return "-" if x is None else f"{x:.2f}x"


def write_markdown(path, doc):
    L = []
    L.append(f"# stark benchmark suite, {doc['label']} ({doc['date']})\n")
    L.append("Command (on the GPU machine, bundle unpacked to /tmp/stark):\n")
    L.append("```sh\n" + doc.get("command", "-") + "\n```\n")
    if doc.get("recounted"):
        L.append(f"Recounted: {doc['recounted']}.\n")
    v = doc.get("versions", {})
    L.append("Versions: " + "; ".join(f"{k}: {v[k]}" for k in sorted(v)) +
             "\n")
    st = doc.get("settings", {})
    L.append("Settings: " + ", ".join(f"{k}={st[k]}" for k in sorted(st)) +
             "\n")
    if doc.get("copy_bandwidth"):
        cb = doc["copy_bandwidth"]
        sizes = "; ".join(f"{fmt_bytes(p['bytes'])} moved: "
                          f"{p['bytes_per_s'] / 1e12:.2f} TB/s"
                          for p in cb.get("by_size", []))
        L.append(f"Measured copy bandwidth: "
                 f"{cb['bytes_per_s'] / 1e12:.2f} TB/s "
                 "(torch copy of 1 GiB, same protocol)" +
                 (f"; by size ({sizes})" if sizes else "") + ".\n")
    L.append("Phases (wall seconds): " + ", ".join(
        f"{k} {v:.0f}" for k, v in doc.get("phases", {}).items()) + "\n")
    L.append("## Goals\n")
    for g in doc["goals"]:
        L.append(f"- **{'met' if g['met'] else 'missed'}**: {g['text']}" +
                 (f" ({g['detail']})" if g.get("detail") else ""))
    L.append("")
    L.append("## Summary\n")
    L.append("| set | problems | stark time | fast_1 vs eager | fast_1 vs "
             "compile | geomean vs eager | geomean vs compile | geomean vs "
             "upstream | median % of roofline | search s (mean / total) | "
             "s per evaluated candidate (median) |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for cat, s in doc["summary"].items():
        roof = s["median_roofline_fraction"]
        L.append(
            f"| {cat} | {s['problems']} | {s['with_stark_time']} | "
            f"{s['fast_1_vs_eager']:.0%} | {s['fast_1_vs_compile']:.0%} | "
            f"{fmt_x(s['geomean_vs_eager'])} | "
            f"{fmt_x(s['geomean_vs_compile'])} | "
            f"{fmt_x(s['geomean_vs_upstream'])} | "
            f"{'-' if roof is None else f'{roof:.0%}'} | "
            f"{(s['mean_search_seconds'] or 0):.0f} / "
            f"{s['total_search_seconds']:.0f} | "
            f"{fmt_seconds(s.get('median_evaluation_seconds'))} |")
    L.append("")
    line = throughput_line(doc)
    if line:
        L.append(line + "\n")
    checks = [r.get("compile_check") for r in doc["problems"]
              if r.get("compile_check")]
    if checks:
        counts = {}
        for c in checks:
            counts[c["status"]] = counts.get(c["status"], 0) + 1
        L.append("torch.compile, each twin alone after `torch._dynamo.reset()`"
                 ", graphs counted by the backend: " +
                 ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) +
                 " (only `compiled` twins have a compile time).\n")
    L += contraction_markdown(doc["problems"])
    L.append("## Problems\n")
    L.append("Times are medians. *stark*: the program as stark leaves it "
             "(each op by its verified winner, else the upstream lowering), "
             "re-timed serially with stark-eval unless marked `*` (search "
             "timing, taken in parallel). *roofline*: the sum of the ops' "
             f"roofline times on the {st.get('profile', '-')} profile; "
             "% = roofline / stark.\n")
    L.append("| problem | set | upstream | stark | eager | compile | vs "
             "eager | vs compile | vs upstream | % roofline | winners / "
             "problems | search s | twin check | compile check | notes |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in doc["problems"]:
        roof = r.get("roofline_fraction")
        star = "" if r.get("retimed", True) else "*"
        L.append(
            f"| {r['name']} | {r['category']} | {fmt_s(r.get('upstream_s'))}"
            f" | {fmt_s(r.get('stark_s'))}{star} | {fmt_s(r.get('eager_s'))}"
            f" | {fmt_s(r.get('compile_s'))} | "
            f"{fmt_x(r.get('speedup_vs_eager'))} | "
            f"{fmt_x(r.get('speedup_vs_compile'))} | "
            f"{fmt_x(r.get('speedup_vs_upstream'))} | "
            f"{'-' if roof is None else f'{roof:.0%}'} | "
            f"{r.get('winners', 0)} / {r.get('stark_problems', 0)} | "
            f"{(r.get('search_seconds') or 0):.0f} | "
            f"{(r.get('twin_check') or {}).get('status', '-')} | "
            f"{compile_note(r.get('compile_check'))} | "
            f"{'; '.join(r.get('notes', []))} |")
    L.append("")
    L.append("## Winners\n")
    for r in doc["problems"]:
        for w in r.get("winner_list", []):
            L.append(f"- {r['name']}: {w}")
    L.append("")
    if doc.get("chart_note"):
        L.append(doc["chart_note"] + "\n")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def fmt_tflops(x):
    return "-" if x is None else f"{x:.2f}"


def fmt_pct(x):
    return "-" if x is None else f"{x:.0%}"


def contraction_summary(results):
    """Per contraction group: how many rows, how many with both times, the
    geomean of stark's share of the library (eager / stark) and of its
    speedup over the best peer."""
    rows = contraction_rows(results)
    out = {}
    for g in PEER_LIBRARY:
        rs = [c for c in rows if c["group"] == g]
        if not rs:
            continue
        best = [c["stark_tflops"] / c["best_peer_tflops"] for c in rs
                if c["stark_tflops"] and c["best_peer_tflops"]]
        out[g] = {"problems": len(rs),
                  "timed": sum(1 for c in rs if c["of_library"]),
                  "geomean_of_library": geomean(
                      [c["of_library"] for c in rs]),
                  "geomean_vs_best_peer": geomean(best),
                  "library": PEER_LIBRARY[g]}
    return out


GROUP_TITLES = {"gemm": "fp32 GEMM", "gemm_bf16": "bf16 GEMM",
                "gemv": "fp32 GEMV", "conv": "convolutions"}


def contraction_markdown(results):
    """The TFLOP/s table of the GEMM, GEMV and convolution problems and its
    geomean lines; nothing when there is none."""
    rows = contraction_rows(results)
    if not rows:
        return []
    L = ["## Contractions\n",
         "TFLOP/s = the problem's FLOP count (2 per multiply-add, from its "
         "shapes) / the median time. *best peer*: the faster of torch eager "
         "and torch.compile. *% of library* = eager time / stark time: "
         "torch eager runs an fp32 or bf16 matmul on cuBLAS and a "
         "convolution on cuDNN, with TF32 off (`allow_tf32 = False`, matmul "
         "precision `highest`).\n",
         "| problem | shapes | dtype | GFLOP | stark | eager | compile | stark "
         "TFLOP/s | eager TFLOP/s | compile TFLOP/s | best peer TFLOP/s | "
         "% of library |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in rows:
        L.append(
            f"| {c['name']} | {c['set']} | {c['dtype']} | "
            f"{c['flops'] / 1e9:.4g} | {fmt_s(c['stark_s'])} | "
            f"{fmt_s(c['eager_s'])} | {fmt_s(c['compile_s'])} | "
            f"{fmt_tflops(c['stark_tflops'])} | "
            f"{fmt_tflops(c['eager_tflops'])} | "
            f"{fmt_tflops(c['compile_tflops'])} | "
            f"{fmt_tflops(c['best_peer_tflops'])} | " +
            ("- |" if c["of_library"] is None else
               f"{c['of_library']:.0%} {c['library']} |"))
    L.append("")
    for g, s in contraction_summary(results).items():
        L.append(f"- {GROUP_TITLES[g]}: geomean "
                 f"{fmt_pct(s['geomean_of_library'])} of {s['library']}, "
                 f"{fmt_x(s['geomean_vs_best_peer'])} the best peer "
                 f"({s['timed']} of {s['problems']} timed)")
    L.append("")
    return L


def write_chart(path, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        return f"No chart: matplotlib does not import ({e!r})."
    rows = [r for r in results if r.get("speedup_vs_eager") or
            r.get("speedup_vs_compile")]
    if not rows:
        return "No chart: no problem has both a stark and a torch time."
    names = [r["name"] for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(rows) + 1.5))
    y = list(range(len(rows)))
    ax.barh([i - 0.2 for i in y], [r.get("speedup_vs_eager") or 0
                                   for r in rows], height=0.4,
            label="vs torch eager")
    ax.barh([i + 0.2 for i in y], [r.get("speedup_vs_compile") or 0
                                   for r in rows], height=0.4,
            label="vs torch.compile")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yticks(y)
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("speedup of stark (higher is better, log scale)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m stark.benchreport",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("results", help="a results .json of python3 -m stark.bench")
    ap.add_argument("-o", "--output", help="markdown file (default: the "
                    "results file with .md)")
    args = ap.parse_args(argv)
    with open(args.results) as f:
        doc = json.load(f)
    doc["summary"], doc["goals"] = summarize(doc["problems"],
                                             doc.get("copy_bandwidth"))
    out = args.output or (args.results[:-5] if args.results.endswith(".json")
                          else args.results) + ".md"
    write_markdown(out, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
