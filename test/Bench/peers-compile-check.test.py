"""Drives the suite's torch timing (stark.bench.torch_time) and the peers'
choice with a fake torch whose Dynamo behaves as the real one does where it
matters: compiles are counted per code object (every twin runs through the
driver's one wrapper), a frame that reached the recompile limit runs eager
without a graph, torch._dynamo.reset() clears the counts. Twins may compile
to a graph, be skipped by Dynamo (no graph: eager), raise, or recompile on
every call. Each costs a fixed time on a fake clock, halved when it runs as
a compiled graph."""

import sys
from types import SimpleNamespace

import stark.bench as bench
from stark.models import choose_best_peer
from stark.peers import best_peer, compile_note, compile_peer

LIMIT = 8


class Clock:
    now = 0.0


class Event:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self):
        self.t = Clock.now

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3


class Dynamo:
    def __init__(self):
        self.config = SimpleNamespace(recompile_limit=LIMIT)
        self.utils = SimpleNamespace(counters={"frames": {}, "stats": {}})
        self.compiles = {}
        self.resets = 0

    def reset(self):
        self.resets += 1
        self.compiles.clear()

    def lookup_backend(self, name):
        return lambda gm, example_inputs: gm.forward


class GraphModule:
    def __init__(self, fn):
        self.forward = fn
        self.graph = SimpleNamespace(nodes=[1, 2, 3])


class FakeTorch:
    float32 = "float32"
    uint8 = "uint8"

    def __init__(self):
        self._dynamo = Dynamo()
        self.cuda = SimpleNamespace(synchronize=lambda: None, Event=Event)

    def Generator(self, device=None):
        return SimpleNamespace(manual_seed=lambda s: None)

    def rand(self, shape, device=None, generator=None, dtype=None):
        return list(shape)

    def empty(self, n, dtype=None, device=None):
        return SimpleNamespace(zero_=lambda: None)

    def compile(self, fn, backend=None):
        """Dynamo on one frame: the wrapper's code object is the cache key."""
        dyn = self._dynamo
        key = fn.__code__
        state = {"graph": None}

        def run(*xs):
            twin = TWINS_BY_SHAPE[xs[0][0]]
            if state["graph"] is None or twin.behaviour == "recompile":
                if dyn.compiles.get(key, 0) >= LIMIT:
                    return fn(*xs)  # recompile limit: eager, no graph
                dyn.compiles[key] = dyn.compiles.get(key, 0) + 1
                if twin.behaviour == "raise":
                    raise RuntimeError("inductor: lowering failed")
                if twin.behaviour == "skip":
                    return fn(*xs)  # frame skipped: eager, no graph
                frames = dyn.utils.counters["frames"]
                frames["ok"] = frames.get("ok", 0) + 1
                state["graph"] = backend(GraphModule(twin.compiled), xs)
            return state["graph"](*xs)
        return run


class Twin:
    def __init__(self, name, behaviour, cost):
        self.name, self.behaviour, self.cost = name, behaviour, cost

    def __call__(self, *xs, d=None, p=None):
        Clock.now += self.cost

    def compiled(self, *xs):
        Clock.now += self.cost / 2


# Ten twins that compile (more than the recompile limit), then one Dynamo
# skips, one that fails to compile, one that recompiles on every call.
SPECS = [(f"twin{i}", "graph") for i in range(10)] + [
    ("skipped", "skip"), ("broken", "raise"), ("unstable", "recompile")]
TWINS = {}
TWINS_BY_SHAPE = {}
for i, (name, behaviour) in enumerate(SPECS):
    t = Twin(name, behaviour, 1e-3 * (i + 1))
    TWINS[name] = t
    TWINS_BY_SHAPE[i + 1] = t
twins = SimpleNamespace(TWINS=TWINS)

torch = FakeTorch()
for i, (name, _) in enumerate(SPECS):
    meta = {"name": name, "twin": name, "dims": {}, "params": {},
            "args": [{"shape": [i + 1], "dtype": "f32"}]}
    res = bench.torch_time(torch, twins, meta, True)
    rec = res["compile_check"]
    eager = res["eager"]["median_s"]
    comp = (res.get("compile") or {}).get("median_s")
    best, _ = best_peer({"eager": eager, "compile": comp},
                        {"compile": rec["status"]})
    print(f"{name}: {compile_note(rec).split(', ')[0]} graphs={rec['graphs']}"
          f" compile_time={'yes' if comp else 'no'} best={best}")
print(f"resets={torch._dynamo.resets}")

# The model bench's best peer: the least call time among the peers whose
# compile check says compiled.
row = {"eager_s": 3.0, "compile_s": 1.0, "autotune_s": 0.5,
       "cuda_graph_s": 2.0,
       "compile_checks": {"compile": {"status": "no graph"},
                          "autotune": {"status": "timeout"}}}
choose_best_peer(row)
print(f"model best peer: {row['best_peer']} {row['best_peer_s']}")
row["compile_checks"]["compile"]["status"] = "compiled"
choose_best_peer(row)
print(f"model best peer: {row['best_peer']} {row['best_peer_s']}")

# --peers-from: a stark run takes the peers of an earlier run's rows, and
# chooses its best peer by the same rule.
import json
import tempfile
from stark.models import merge_peers
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump({"rows": [{"model": "m", "eager_s": 3.0, "compile_s": 1.0,
                         "cuda_graph_s": 2.5,
                         "compile_checks": {"compile": {"status": "failed"}}}]},
              f)
rows = [{"model": "m", "stark_s": 2.0}]
merge_peers(rows, f.name)
print(f"merged best peer: {rows[0]['best_peer']} {rows[0]['best_peer_s']}")
sys.exit(0)
