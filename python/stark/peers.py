"""How the PyTorch peers are measured: torch.compile checked and recorded,
a CUDA graph of eager, device time from the profiler, the best peer.

Shared by the kernel suite (stark.bench) and the model bench
(stark.models). torch is always an argument, never imported here, so the
decisions (what a compile outcome is, which peer counts as the best) run
and are tested without torch (test/Bench/peers-compile-check.test).

A compile is recorded as one of:

- `compiled`: Dynamo produced at least one graph, and the timed calls did
  not compile again (no recompile);
- `no graph`: the call ran but no graph reached the backend (Dynamo fell
  back to eager: a skipped frame, or its recompile limit reached); the
  time is eager's and is not reported as torch.compile's;
- `recompiled`: graphs were produced again on the timed calls (guards
  failed on every call: the time would include compiles);
- `failed`: the compile raised; `timeout`: it did not finish in its limit.

Only `compiled` gives a compile time a peer column.
"""

import time

COMPILED = "compiled"
NO_GRAPH = "no graph"
RECOMPILED = "recompiled"
FAILED = "failed"
TIMEOUT = "timeout"


def dynamo_counter(torch, group, key):
    """torch._dynamo.utils.counters[group][key], 0 where this torch has no
    such counter."""
    try:
        return int(torch._dynamo.utils.counters[group][key])
    except Exception:
        return 0


def recompile_limit(torch):
    """Dynamo's limit of compiles per frame (recompile_limit, formerly
    cache_size_limit); None where neither exists."""
    cfg = torch._dynamo.config
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(cfg, name):
            return getattr(cfg, name)
    return None


def counting_backend(torch, mode):
    """A backend that counts the graphs Dynamo hands it and compiles each
    with inductor in `mode` (None: the default)."""
    graphs = []
    inner = None

    def backend(gm, example_inputs, **kwargs):
        nonlocal inner
        graphs.append(len(getattr(getattr(gm, "graph", None), "nodes", ())))
        if inner is None:
            wrapper = getattr(torch, "_TorchCompileInductorWrapper", None)
            inner = (wrapper(mode, None, False) if wrapper is not None and
                     mode else torch._dynamo.lookup_backend("inductor"))
        return inner(gm, example_inputs)
    return backend, graphs


def classify(outcome):
    """The status of one compile from what was observed: `error` (the
    exception's text or None), `graphs` (graphs produced by the first
    call), `graphs_after` (graphs after the timed calls)."""
    if outcome.get("timed_out"):
        return TIMEOUT
    if outcome.get("error"):
        return FAILED
    if not outcome.get("graphs"):
        return NO_GRAPH
    if outcome.get("graphs_after", outcome["graphs"]) > outcome["graphs"]:
        return RECOMPILED
    return COMPILED


def compile_peer(torch, fn, inputs, mode=None, sync=None, repeat=2):
    """torch.compile of `fn` alone: Dynamo's state reset first (its caches
    and recompile counts are per code object, and twins called through one
    wrapper share one), compiled with a graph-counting inductor backend,
    called once (the compile, timed), then `repeat` times more to check
    that nothing compiles again. Returns (record, compiled callable or
    None); the callable is given only for status `compiled`."""
    torch._dynamo.reset()
    backend, graphs = counting_backend(torch, mode)
    frames0 = dynamo_counter(torch, "frames", "ok")
    rec = {"mode": mode or "default", "limit": recompile_limit(torch)}
    t0 = time.monotonic()
    compiled = None
    try:
        compiled = torch.compile(fn, backend=backend)
        compiled(*inputs)
        if sync:
            sync()
        rec["graphs"] = len(graphs)
        for _ in range(repeat):
            compiled(*inputs)
        if sync:
            sync()
        rec["graphs_after"] = len(graphs)
    except Exception as e:  # a failed compile is a result
        rec["error"] = f"{type(e).__name__}: {e}"[:500]
        rec.setdefault("graphs", len(graphs))
    rec["compile_seconds"] = time.monotonic() - t0
    rec["frames_ok"] = dynamo_counter(torch, "frames", "ok") - frames0
    rec["status"] = classify(rec)
    return rec, (compiled if rec["status"] == COMPILED else None)


def best_peer(times, statuses=None):
    """The fastest peer: `times` maps a peer name (eager, compile, ...) to
    its median seconds or None; a peer whose compile status is not
    `compiled` does not count. Returns (name, seconds) or (None, None)."""
    statuses = statuses or {}
    ok = {k: v for k, v in times.items()
          if v and statuses.get(k, COMPILED) == COMPILED}
    if not ok:
        return None, None
    name = min(ok, key=ok.get)
    return name, ok[name]


def compile_note(rec):
    """One line for a report: status, graphs, compile seconds, why."""
    if not rec:
        return "-"
    text = rec["status"]
    if rec.get("graphs") is not None:
        text += f", {rec['graphs']} graph{'s' if rec['graphs'] != 1 else ''}"
    if rec.get("compile_seconds") is not None:
        text += f", {rec['compile_seconds']:.0f} s"
    if rec.get("error"):
        text += f": {rec['error'][:80]}"
    return text


def cuda_graph(torch, fn, warmup=3):
    """A CUDA graph of eager `fn`: warmed up on a side stream, captured,
    returned as a callable that replays it."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(warmup):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    torch.cuda.synchronize()
    return g.replay


def kernel_seconds(torch, fn, calls=5, warmup=2):
    """Device time of one call: the sum of the durations of the GPU
    activities (kernels, memsets, copies) torch.profiler records over
    `calls` calls, divided by `calls`. Unlike the call time it leaves out
    the gaps where the GPU waits for the host to launch."""
    from torch.profiler import ProfilerActivity, profile
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    total_us = 0.0
    for e in prof.key_averages():
        if str(getattr(e, "device_type", "")).endswith("CUDA"):
            total_us += (getattr(e, "self_device_time_total", None) or
                         getattr(e, "self_cuda_time_total", 0) or 0)
    return total_us * 1e-6 / calls


def geomean_of(xs):
    """The geometric mean of the positive values of xs; None without any."""
    import math
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None
