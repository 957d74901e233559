#!/usr/bin/env python3
"""Writes the benchmark problems bench/problems/<name>.mlir from one table.

Every problem is a function of its dimensions, so the same definition gives
the benchmark file (KernelBench's shapes, or scaled down) and small variants
for checks. Each file starts with a `// stark-bench: {json}` line that the
driver (python/stark/bench.py) reads: name, category, twin, arguments,
result, dims, params, the KernelBench problem and shapes it follows and the
scale-down factor.

The full set (--set full, bench/problems/full/) is every problem of the
table at its `full=` dims (KernelBench's own shapes; a fused chain's own),
and bf16 twins of the GEMM and memory-bound problems (`twin_bf16`, in the
full set only), less those too large for the host (HOST_CAP_BYTES), with a
generated README.md that lists groups, sizes and what is left out. Its
headers carry a finer `group` than the reduced set's (group_of).

  python3 bench/problems/gen.py            # rewrite the .mlir files here
  python3 bench/problems/gen.py --set full # rewrite bench/problems/full
  python3 bench/problems/gen.py --check    # exit 1 if a file is stale
  python3 bench/problems/gen.py --small DIR  # small variants into DIR
  python3 bench/problems/gen.py --lint STARK_OPT  # what the lit test runs
"""

import argparse
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Largest tensor a benchmark problem may hold (elements) and the most
# arithmetic a contraction may do: the evaluator generates and compares
# every input and output on the host for each trial, and the upstream
# baseline lowering of a contraction runs at tens of GFLOP/s, so the whole
# suite fits one device call only below these.
MAX_ELEMENTS = 1 << 23
MAX_FLOP = 2.5e9


def ty(shape, dt="f32"):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + dt + ">"


def amap(n, res):
    dims = ", ".join(f"d{i}" for i in range(n))
    return f"affine_map<({dims}) -> ({', '.join(res)})>"


class Fn:
    """Builds the body of @main: SSA values on tensors."""

    def __init__(self, args):
        self.args = args  # [(name, shape, dtype)]
        self.lines = []
        self.n = 0
        self.types = {f"%{a}": (s, d) for a, s, d in args}

    def fresh(self):
        self.n += 1
        return f"%t{self.n}"

    def const(self, value, dt="f32"):
        v = self.fresh()
        if isinstance(value, str):
            lit = value
        elif dt.startswith("i"):
            lit = str(int(value))
        else:
            lit = repr(float(value))
            if "e" in lit or "inf" in lit or "nan" in lit:
                inf = ({"inf": "0x7F80", "-inf": "0xFF80"} if dt == "bf16"
                       else {"inf": "0x7F800000", "-inf": "0xFF800000"})
                lit = inf.get(lit, f"{float(value):e}")
        self.lines.append(f"{v} = arith.constant {lit} : {dt}")
        return v

    def empty(self, shape, dt="f32"):
        v = self.fresh()
        self.lines.append(f"{v} = tensor.empty() : {ty(shape, dt)}")
        self.types[v] = (shape, dt)
        return v

    def filled(self, shape, value, dt="f32"):
        c = self.const(value, dt)
        e = self.empty(shape, dt)
        v = self.fresh()
        self.lines.append(f"{v} = linalg.fill ins({c} : {dt}) outs({e} : "
                          f"{ty(shape, dt)}) -> {ty(shape, dt)}")
        self.types[v] = (shape, dt)
        return v

    def t(self, v):
        return ty(*self.types[v])

    def named(self, op, ins, out, attrs=""):
        v = self.fresh()
        a = f" {attrs}" if attrs else ""
        self.lines.append(
            f"{v} = {op}{a} ins({', '.join(ins)} : "
            f"{', '.join(self.t(i) for i in ins)}) outs({out} : {self.t(out)})"
            f" -> {self.t(out)}")
        self.types[v] = self.types[out]
        return v

    def generic(self, rank, ins, outs, iters, body, yields):
        """ins/outs: [(value, map results)]; body: lines using the block
        arguments %a0.. (ins) and %o0.. (outs); yields: values."""
        maps = [amap(rank, m) for _, m in ins + outs]
        it = ", ".join(f'"{i}"' for i in iters)
        bargs = [f"%a{i}: {self.types[v][1]}" for i, (v, _) in enumerate(ins)]
        bargs += [f"%o{i}: {self.types[v][1]}" for i, (v, _) in enumerate(outs)]
        res = [self.fresh() for _ in outs]
        lhs = res[0] if len(res) == 1 else f"{res[0]}:{len(res)}"
        head = (f"{lhs} = linalg.generic {{indexing_maps = [{', '.join(maps)}],"
                f" iterator_types = [{it}]}}")
        ins_s = (f" ins({', '.join(v for v, _ in ins)} : "
                 f"{', '.join(self.t(v) for v, _ in ins)})") if ins else ""
        outs_s = (f" outs({', '.join(v for v, _ in outs)} : "
                  f"{', '.join(self.t(v) for v, _ in outs)})")
        rtypes = ", ".join(self.t(v) for v, _ in outs)
        self.lines.append(head + ins_s + outs_s + " {")
        self.lines.append(f"^bb0({', '.join(bargs)}):")
        self.lines += ["  " + b for b in body]
        ytypes = ", ".join(self.types[v][1] for v, _ in outs)
        self.lines.append(f"  linalg.yield {', '.join(yields)} : {ytypes}")
        self.lines.append(f"}} -> {rtypes}" if len(outs) == 1 else
                          f"}} -> ({rtypes})")
        if len(res) == 1:
            self.types[res[0]] = self.types[outs[0][0]]
            return res[0]
        base = res[0]
        vals = []
        for i, (v, _) in enumerate(outs):
            self.types[f"{base}#{i}"] = self.types[v]
            vals.append(f"{base}#{i}")
        return vals

    def text(self, result):
        params = ", ".join(f"%{a}: {ty(s, d)}" for a, s, d in self.args)
        rt = self.t(result)
        body = "\n".join("  " + l for l in self.lines)
        return (f"func.func @main({params}) -> {rt} {{\n{body}\n"
                f"  return {result} : {rt}\n}}\n")


def idmap(rank):
    return [f"d{i}" for i in range(rank)]


# ---------------------------------------------------------------------------
# Payloads: scalar code over %x (f32) that leaves the result in %r.
# ---------------------------------------------------------------------------

def sigmoid(x, r, p="s"):
    return [f"%{p}one = arith.constant 1.0 : f32",
            f"%{p}n = arith.negf {x} : f32",
            f"%{p}e = math.exp %{p}n : f32",
            f"%{p}d = arith.addf %{p}one, %{p}e : f32",
            f"{r} = arith.divf %{p}one, %{p}d : f32"]


def gelu(x, r, p="g"):
    return [f"%{p}half = arith.constant 0.5 : f32",
            f"%{p}one = arith.constant 1.0 : f32",
            f"%{p}rs2 = arith.constant 0.707106769 : f32",
            f"%{p}a = arith.mulf {x}, %{p}rs2 : f32",
            f"%{p}e = math.erf %{p}a : f32",
            f"%{p}b = arith.addf %{p}one, %{p}e : f32",
            f"%{p}c = arith.mulf {x}, %{p}half : f32",
            f"{r} = arith.mulf %{p}c, %{p}b : f32"]


def silu(x, r, p="q"):
    return sigmoid(x, f"%{p}sig", p + "s") + [
        f"{r} = arith.mulf {x}, %{p}sig : f32"]


def relu(x, r, p="r"):
    return [f"%{p}z = arith.constant 0.0 : f32",
            f"{r} = arith.maximumf {x}, %{p}z : f32"]


ACTIVATIONS = {
    "relu": relu,
    "leaky_relu": lambda x, r: [
        "%k = arith.constant 0.00999999977 : f32",
        "%z = arith.constant 0.0 : f32",
        f"%n = arith.mulf {x}, %k : f32",
        f"%c = arith.cmpf ogt, {x}, %z : f32",
        f"{r} = arith.select %c, {x}, %n : f32"],
    "sigmoid": sigmoid,
    "tanh": lambda x, r: [f"{r} = math.tanh {x} : f32"],
    "silu": silu,
    "gelu": gelu,
    "softplus": lambda x, r: [
        "%th = arith.constant 20.0 : f32",
        f"%e = math.exp {x} : f32",
        "%l = math.log1p %e : f32",
        f"%c = arith.cmpf ogt, {x}, %th : f32",
        f"{r} = arith.select %c, {x}, %l : f32"],
    "elu": lambda x, r: [
        "%z = arith.constant 0.0 : f32",
        f"%m = math.expm1 {x} : f32",
        f"%c = arith.cmpf ogt, {x}, %z : f32",
        f"{r} = arith.select %c, {x}, %m : f32"],
    "hardtanh": lambda x, r: [
        "%lo = arith.constant -1.0 : f32",
        "%hi = arith.constant 1.0 : f32",
        f"%a = arith.maximumf {x}, %lo : f32",
        f"{r} = arith.minimumf %a, %hi : f32"],
    "new_gelu": lambda x, r: [
        "%half = arith.constant 0.5 : f32",
        "%one = arith.constant 1.0 : f32",
        "%k = arith.constant 0.797884583 : f32",
        "%c3 = arith.constant 0.0447150017 : f32",
        f"%x2 = arith.mulf {x}, {x} : f32",
        f"%x3 = arith.mulf %x2, {x} : f32",
        "%a = arith.mulf %x3, %c3 : f32",
        f"%b = arith.addf {x}, %a : f32",
        "%c = arith.mulf %b, %k : f32",
        "%t = math.tanh %c : f32",
        "%u = arith.addf %one, %t : f32",
        f"%h = arith.mulf {x}, %half : f32",
        f"{r} = arith.mulf %h, %u : f32"],
}


def widen(dt, a):
    """A block argument of type dt as f32: (lines, name). Low-precision
    problems keep their tensors in dt and compute in f32, as the bf16 GEMM
    twins accumulate in f32 and torch computes a bf16 op in f32."""
    if dt == "f32":
        return [], a
    return [f"{a}f = arith.extf {a} : {dt} to f32"], a + "f"


def narrow(dt, r):
    """The value a payload yields when it computed r in f32: (lines, name)."""
    if dt == "f32":
        return [], r
    return [f"{r}n = arith.truncf {r} : f32 to {dt}"], r + "n"


def unary(f, x, payload):
    shape, dt = f.types[x]
    rank = len(shape)
    out = f.empty(shape, dt)
    pre, xa = widen(dt, "%a0")
    post, res = narrow(dt, "%r")
    return f.generic(rank, [(x, idmap(rank))], [(out, idmap(rank))],
                     ["parallel"] * rank, pre + payload(xa, "%r") + post,
                     [res])


# ---------------------------------------------------------------------------
# Problem builders: each takes dims (and params) and returns (args, Fn, result)
# ---------------------------------------------------------------------------

def dtype_of(p):
    return p.get("dtype", "f32")


def b_activation(d, p):
    f = Fn([("x", [d["B"], d["D"]], dtype_of(p))])
    return f, unary(f, "%x", ACTIVATIONS[p["act"]])


def b_scalar_mul(d, p):
    f = Fn([("A", [d["M"], d["N"]], dtype_of(p))])
    s = p["s"]
    return f, unary(f, "%A", lambda x, r: [
        f"%s = arith.constant {s!r} : f32", f"{r} = arith.mulf {x}, %s : f32"])


def matmul_maps(ta, tb):
    a = ["d2", "d0"] if ta else ["d0", "d2"]
    b = ["d1", "d2"] if tb else ["d2", "d1"]
    return a, b


def b_matmul(d, p):
    ta, tb = p.get("ta", False), p.get("tb", False)
    dt = p.get("dtype", "f32")
    M, N, K = d["M"], d["N"], d["K"]
    f = Fn([("A", [K, M] if ta else [M, K], dt),
            ("B", [N, K] if tb else [K, N], dt)])
    # torch-mlir lowers a bf16 aten.mm (what torch.matmul on two matrices
    # becomes) to a zero-filled f32 accumulator, linalg.matmul with bf16
    # operands and that f32 output, then an element-wise truncf to bf16.
    # linalg.matmul computes in its output's type (each operand is extended
    # to it before the multiply), so this form accumulates in f32 as cuBLAS'
    # bf16 GEMM does; a bf16 output would round every partial sum to bf16.
    acc = f.filled([M, N], 0.0)
    if ta or tb:
        a, b = matmul_maps(ta, tb)
        attrs = ("indexing_maps = [" + ", ".join(
            [amap(3, a), amap(3, b), amap(3, ["d0", "d1"])]) + "]")
        y = f.named("linalg.matmul", ["%A", "%B"], acc, attrs)
    else:
        y = f.named("linalg.matmul", ["%A", "%B"], acc)
    if dt == "f32":
        return f, y
    out = f.empty([M, N], dt)
    return f, f.generic(2, [(y, ["d0", "d1"])], [(out, ["d0", "d1"])],
                        ["parallel", "parallel"],
                        [f"%r = arith.truncf %a0 : f32 to {dt}"], ["%r"])


def b_bmm(d, p):
    Bt, M, N, K = d["BATCH"], d["M"], d["N"], d["K"]
    f = Fn([("A", [Bt, M, K], "f32"), ("B", [Bt, K, N], "f32")])
    acc = f.filled([Bt, M, N], 0.0)
    return f, f.named("linalg.batch_matmul", ["%A", "%B"], acc)


def b_matvec(d, p):
    f = Fn([("A", [d["M"], d["K"]], "f32"), ("x", [d["K"]], "f32")])
    acc = f.filled([d["M"]], 0.0)
    return f, f.named("linalg.matvec", ["%A", "%x"], acc)


def b_tensor3_matmul(d, p):
    N, M, K, L = d["N"], d["M"], d["K"], d["L"]
    f = Fn([("A", [N, M, K], "f32"), ("B", [K, L], "f32")])
    acc = f.filled([N, M, L], 0.0)
    # (n, m, l, k)
    return f, f.generic(4, [("%A", ["d0", "d1", "d3"]), ("%B", ["d3", "d2"])],
                        [(acc, ["d0", "d1", "d2"])],
                        ["parallel", "parallel", "parallel", "reduction"],
                        ["%m = arith.mulf %a0, %a1 : f32",
                         "%s = arith.addf %o0, %m : f32"], ["%s"])


def b_diag_matmul(d, p):
    N, M = d["N"], d["M"]
    f = Fn([("a", [N], "f32"), ("B", [N, M], "f32")])
    out = f.empty([N, M])
    return f, f.generic(2, [("%a", ["d0"]), ("%B", ["d0", "d1"])],
                        [(out, ["d0", "d1"])], ["parallel", "parallel"],
                        ["%r = arith.mulf %a0, %a1 : f32"], ["%r"])


def row_reduce_generic(f, x, rank, red_dims, init, body, dt="f32", pre=None):
    """Reduces x over red_dims with a generic; body(%v, %acc) -> %r lines."""
    shape = f.types[x][0]
    out_shape = [s for i, s in enumerate(shape) if i not in red_dims]
    acc = f.filled(out_shape, init, dt)
    outmap = [f"d{i}" for i in range(rank) if i not in red_dims]
    iters = ["reduction" if i in red_dims else "parallel" for i in range(rank)]
    ins = [(x, idmap(rank))] + (pre or [])
    return f.generic(rank, ins, [(acc, outmap)], iters, body, ["%r"])


def b_reduce(d, p):
    B, D1, D2 = d["B"], d["D1"], d["D2"]
    dt = dtype_of(p)
    f = Fn([("x", [B, D1, D2], dt)])
    kind = p["kind"]
    if kind in ("sum", "mean"):
        init, comb = 0.0, "arith.addf"
    else:
        init, comb = float("-inf"), "arith.maximumf"
    # The accumulator is f32 whatever the input's type (torch accumulates a
    # bf16 sum in f32 too); a low-precision result is rounded once, after.
    acc = f.filled([B, D2], init)
    v = f.fresh()
    f.lines.append(f"{v} = linalg.reduce ins(%x : {f.t('%x')}) outs({acc} : "
                   f"{f.t(acc)}) dimensions = [1]")
    f.lines.append(f"  (%in: {dt}, %init: f32) {{")
    pre, xin = widen(dt, "%in")
    f.lines += ["    " + l for l in pre]
    f.lines.append(f"    %r = {comb} {xin}, %init : f32")
    f.lines.append("    linalg.yield %r : f32")
    f.lines.append("  }")
    f.types[v] = f.types[acc]
    if kind == "mean" or dt != "f32":
        out = f.empty([B, D2], dt)
        if kind == "mean":
            body = [f"%n = arith.constant {float(D1)!r} : f32",
                    "%r = arith.divf %a0, %n : f32"]
            post, res = narrow(dt, "%r")
        else:
            body, post, res = [], [f"%r = arith.truncf %a0 : f32 to {dt}"], \
                "%r"
        v = f.generic(2, [(v, ["d0", "d1"])], [(out, ["d0", "d1"])],
                      ["parallel", "parallel"], body + post, [res])
    return f, v


def b_argmax(d, p):
    B, D1, D2 = d["B"], d["D1"], d["D2"]
    dt = dtype_of(p)
    f = Fn([("x", [B, D1, D2], dt)])
    # the running maximum stays in the input's type: comparing is exact
    m = f.filled([B, D2], float("-inf"), dt)
    i = f.filled([B, D2], 0, "i64")
    vals = f.generic(3, [("%x", ["d0", "d1", "d2"])],
                     [(m, ["d0", "d2"]), (i, ["d0", "d2"])],
                     ["parallel", "reduction", "parallel"],
                     ["%k = linalg.index 1 : index",
                      "%ki = arith.index_cast %k : index to i64",
                      f"%gt = arith.cmpf ogt, %a0, %o0 : {dt}",
                      f"%m = arith.select %gt, %a0, %o0 : {dt}",
                      "%r = arith.select %gt, %ki, %o1 : i64"], ["%m", "%r"])
    return f, vals[1]


def row_softmax(f, B, D, dt, log):
    """(log-)softmax over the rows of %x (B x D, type dt) as generics: row
    max, sum of exp(x - max), then the normalisation; the statistics are f32
    and a low-precision result is rounded once."""
    pre, xa = widen(dt, "%a0")
    m = row_reduce_generic(f, "%x", 2, [1], float("-inf"),
                           pre + [f"%r = arith.maximumf {xa}, %o0 : f32"])
    s = row_reduce_generic(f, "%x", 2, [1], 0.0,
                           pre + [f"%d = arith.subf {xa}, %a1 : f32",
                                  "%e = math.exp %d : f32",
                                  "%r = arith.addf %e, %o0 : f32"],
                           pre=[(m, ["d0"])])
    out = f.empty([B, D], dt)
    if log:
        body = ["%l = math.log %a2 : f32",
                f"%d = arith.subf {xa}, %a1 : f32",
                "%r = arith.subf %d, %l : f32"]
    else:
        body = [f"%d = arith.subf {xa}, %a1 : f32",
                "%e = math.exp %d : f32",
                "%r = arith.divf %e, %a2 : f32"]
    post, res = narrow(dt, "%r")
    return f.generic(2, [("%x", ["d0", "d1"]), (m, ["d0"]), (s, ["d0"])],
                     [(out, ["d0", "d1"])], ["parallel", "parallel"],
                     pre + body + post, [res])


def b_softmax(d, p):
    dt = dtype_of(p)
    f = Fn([("x", [d["B"], d["D"]], dt)])
    if dt != "f32":
        # linalg.softmax computes in its tensors' type: a bf16 one would
        # sum 393216 exponentials in bf16
        return f, row_softmax(f, d["B"], d["D"], dt, log=False)
    out = f.empty([d["B"], d["D"]])
    return f, f.named("linalg.softmax", ["%x"], out, "dimension(1)")


def b_log_softmax(d, p):
    dt = dtype_of(p)
    f = Fn([("x", [d["B"], d["D"]], dt)])
    return f, row_softmax(f, d["B"], d["D"], dt, log=True)


def layer_norm(f, x, rank, red, gamma, gmap, beta, eps, act=None):
    """Two-pass layer norm of x over the loop dims `red`, affine, optional
    activation payload fused into the normalisation. x, gamma and beta share
    a type; the statistics and the arithmetic are f32."""
    shape, dt = f.types[x]
    n = 1
    for i in red:
        n *= shape[i]
    px, xa = widen(dt, "%a0")
    s = row_reduce_generic(f, x, rank, red, 0.0,
                           px + [f"%r = arith.addf {xa}, %o0 : f32"])
    keep = [f"d{i}" for i in range(rank) if i not in red]
    v = row_reduce_generic(f, x, rank, red, 0.0,
                           px + [f"%n = arith.constant {float(n)!r} : f32",
                                 "%mu = arith.divf %a1, %n : f32",
                                 f"%d = arith.subf {xa}, %mu : f32",
                                 "%q = arith.mulf %d, %d : f32",
                                 "%r = arith.addf %q, %o0 : f32"],
                           pre=[(s, keep)])
    out = f.empty(shape, dt)
    pg, ga = widen(dt, "%a3")
    pb, ba = widen(dt, "%a4")
    body = px + pg + pb + [
        f"%n = arith.constant {float(n)!r} : f32",
        f"%eps = arith.constant {eps:e} : f32",
        "%mu = arith.divf %a1, %n : f32",
        "%var = arith.divf %a2, %n : f32",
        "%ve = arith.addf %var, %eps : f32",
        "%rs = math.rsqrt %ve : f32",
        f"%d = arith.subf {xa}, %mu : f32",
        "%y = arith.mulf %d, %rs : f32",
        f"%yg = arith.mulf %y, {ga} : f32",
        ("%r" if act is None else "%yb") + f" = arith.addf %yg, {ba} : f32"]
    if act is not None:
        body += act("%yb", "%r")
    post, res = narrow(dt, "%r")
    return f.generic(rank, [(x, idmap(rank)), (s, keep), (v, keep),
                            (gamma, gmap), (beta, gmap)],
                     [(out, idmap(rank))], ["parallel"] * rank, body + post,
                     [res])


def b_layer_norm(d, p):
    B, C, H, W = d["B"], d["C"], d["H"], d["W"]
    dt = dtype_of(p)
    f = Fn([("x", [B, C, H, W], dt), ("gamma", [C, H, W], dt),
            ("beta", [C, H, W], dt)])
    return f, layer_norm(f, "%x", 4, [1, 2, 3], "%gamma", ["d1", "d2", "d3"],
                         "%beta", 1e-5)


def b_rms_norm(d, p):
    B, C, H, W = d["B"], d["C"], d["H"], d["W"]
    dt = dtype_of(p)
    f = Fn([("x", [B, C, H, W], dt)])
    px, xa = widen(dt, "%a0")
    ss = row_reduce_generic(f, "%x", 4, [1], 0.0,
                            px + [f"%q = arith.mulf {xa}, {xa} : f32",
                                  "%r = arith.addf %q, %o0 : f32"])
    out = f.empty([B, C, H, W], dt)
    post, res = narrow(dt, "%r")
    return f, f.generic(4, [("%x", idmap(4)), (ss, ["d0", "d2", "d3"])],
                        [(out, idmap(4))], ["parallel"] * 4,
                        px + [f"%n = arith.constant {float(C)!r} : f32",
                              "%eps = arith.constant 9.99999974E-6 : f32",
                              "%m = arith.divf %a1, %n : f32",
                              "%me = arith.addf %m, %eps : f32",
                              "%rms = math.sqrt %me : f32",
                              f"%r = arith.divf {xa}, %rms : f32"] + post,
                        [res])


def b_lp_norm(d, p):
    B, D = d["B"], d["D"]
    dt = dtype_of(p)
    f = Fn([("x", [B, D], dt)])
    px, xa = widen(dt, "%a0")
    if p["p"] == 2:
        pre = [f"%q = arith.mulf {xa}, {xa} : f32"]
        fin = ["%nrm = math.sqrt %a1 : f32",
               f"%r = arith.divf {xa}, %nrm : f32"]
    else:
        pre = [f"%q = math.absf {xa} : f32"]
        fin = [f"%r = arith.divf {xa}, %a1 : f32"]
    ss = row_reduce_generic(f, "%x", 2, [1], 0.0,
                            px + pre + ["%r = arith.addf %q, %o0 : f32"])
    out = f.empty([B, D], dt)
    post, res = narrow(dt, "%r")
    return f, f.generic(2, [("%x", ["d0", "d1"]), (ss, ["d0"])],
                        [(out, ["d0", "d1"])], ["parallel", "parallel"],
                        px + fin + post, [res])


def conv_attrs(rank, stride=1, dil=1):
    return (f"{{dilations = dense<{dil}> : tensor<{rank}xi64>, "
            f"strides = dense<{stride}> : tensor<{rank}xi64>}}")


def conv2d(f, x, w, N, F, OH, OW):
    acc = f.filled([N, F, OH, OW], 0.0)
    return f.named("linalg.conv_2d_nchw_fchw", [x, w], acc, conv_attrs(2))


def b_conv2d(d, p):
    N, C, H, W, F, KH, KW = (d[k] for k in ("N", "C", "H", "W", "F", "KH",
                                            "KW"))
    f = Fn([("x", [N, C, H, W], "f32"), ("w", [F, C, KH, KW], "f32")])
    return f, conv2d(f, "%x", "%w", N, F, H - KH + 1, W - KW + 1)


def b_depthwise(d, p):
    N, C, H, W, K = d["N"], d["C"], d["H"], d["W"], d["K"]
    f = Fn([("x", [N, C, H, W], "f32"), ("w", [C, K, K], "f32")])
    acc = f.filled([N, C, H - K + 1, W - K + 1], 0.0)
    return f, f.named("linalg.depthwise_conv_2d_nchw_chw", ["%x", "%w"], acc,
                      conv_attrs(2))


def conv1d(f, x, w, N, F, OL):
    acc = f.filled([N, F, OL], 0.0)
    return f.named("linalg.conv_1d_ncw_fcw", [x, w], acc, conv_attrs(1))


def b_conv1d(d, p):
    N, C, L, F, K = d["N"], d["C"], d["L"], d["F"], d["K"]
    f = Fn([("x", [N, C, L], "f32"), ("w", [F, C, K], "f32")])
    return f, conv1d(f, "%x", "%w", N, F, L - K + 1)


def b_pool2d(d, p):
    N, C, H, W, K, S = d["N"], d["C"], d["H"], d["W"], d["K"], d["S"]
    dt = dtype_of(p)
    f = Fn([("x", [N, C, H, W], dt)])
    OH, OW = (H - K) // S + 1, (W - K) // S + 1
    win = f.empty([K, K])
    if p["kind"] == "max":
        # a maximum is exact in any type: the window runs in the input's
        acc = f.filled([N, C, OH, OW], float("-inf"), dt)
        return f, f.named("linalg.pooling_nchw_max", ["%x", win], acc,
                          conv_attrs(2, S))
    # the window sum is f32 (the named op extends each input to it)
    acc = f.filled([N, C, OH, OW], 0.0)
    s = f.named("linalg.pooling_nchw_sum", ["%x", win], acc, conv_attrs(2, S))
    out = f.empty([N, C, OH, OW], dt)
    post, res = narrow(dt, "%r")
    return f, f.generic(4, [(s, idmap(4))], [(out, idmap(4))],
                        ["parallel"] * 4,
                        [f"%n = arith.constant {float(K * K)!r} : f32",
                         "%r = arith.divf %a0, %n : f32"] + post, [res])


def b_cumsum(d, p):
    B, L = d["B"], d["L"]
    f = Fn([("x", [B, L], "f32")])
    acc = f.filled([B, L], 0.0)
    # (b, j, k): out[b, j] += k <= j ? x[b, k] : 0
    return f, f.generic(3, [("%x", ["d0", "d2"])], [(acc, ["d0", "d1"])],
                        ["parallel", "parallel", "reduction"],
                        ["%j = linalg.index 1 : index",
                         "%k = linalg.index 2 : index",
                         "%z = arith.constant 0.0 : f32",
                         "%le = arith.cmpi ule, %k, %j : index",
                         "%v = arith.select %le, %a0, %z : f32",
                         "%r = arith.addf %o0, %v : f32"], ["%r"])


# --- fused chains (one linalg op per framework op, as an importer writes
# them; fusing them is the compiler's job) ----------------------------------

def linear(f, x, w, M, N):
    acc = f.filled([M, N], 0.0)
    a, b = matmul_maps(False, True)
    attrs = ("indexing_maps = [" + ", ".join(
        [amap(3, a), amap(3, b), amap(3, ["d0", "d1"])]) + "]")
    return f.named("linalg.matmul", [x, w], acc, attrs)


def add_bias(f, y, b, bmap):
    shape = f.types[y][0]
    rank = len(shape)
    out = f.empty(shape)
    return f.generic(rank, [(y, idmap(rank)), (b, bmap)], [(out, idmap(rank))],
                     ["parallel"] * rank, ["%r = arith.addf %a0, %a1 : f32"],
                     ["%r"])


def b_gemm_bias_act(d, p):
    M, K, N = d["M"], d["K"], d["N"]
    f = Fn([("x", [M, K], "f32"), ("w", [N, K], "f32"), ("b", [N], "f32")])
    y = add_bias(f, linear(f, "%x", "%w", M, N), "%b", ["d1"])
    return f, unary(f, y, ACTIVATIONS[p["act"]])


def b_gemm_scale_residual(d, p):
    M, K, N = d["M"], d["K"], d["N"]
    f = Fn([("x", [M, K], "f32"), ("w", [N, K], "f32"), ("b", [N], "f32"),
            ("res", [M, N], "f32")])
    y = add_bias(f, linear(f, "%x", "%w", M, N), "%b", ["d1"])
    s = p["scale"]
    y = unary(f, y, lambda x, r: [f"%s = arith.constant {s!r} : f32",
                                  f"{r} = arith.mulf {x}, %s : f32"])
    out = f.empty([M, N])
    return f, f.generic(2, [(y, ["d0", "d1"]), ("%res", ["d0", "d1"])],
                        [(out, ["d0", "d1"])], ["parallel", "parallel"],
                        ["%r = arith.addf %a0, %a1 : f32"], ["%r"])


def b_gemm_sigmoid_sum(d, p):
    M, K, N = d["M"], d["K"], d["N"]
    f = Fn([("x", [M, K], "f32"), ("w", [N, K], "f32"), ("b", [N], "f32")])
    y = add_bias(f, linear(f, "%x", "%w", M, N), "%b", ["d1"])
    y = unary(f, y, sigmoid)
    return f, row_reduce_generic(f, y, 2, [1], 0.0,
                                 ["%r = arith.addf %a0, %o0 : f32"])


def b_conv2d_bias_relu(d, p):
    N, C, H, W, F, K = (d[k] for k in ("N", "C", "H", "W", "F", "K"))
    f = Fn([("x", [N, C, H, W], "f32"), ("w", [F, C, K, K], "f32"),
            ("b", [F], "f32")])
    y = conv2d(f, "%x", "%w", N, F, H - K + 1, W - K + 1)
    y = add_bias(f, y, "%b", ["d1"])
    return f, unary(f, y, relu)


def b_conv2d_affine_relu(d, p):
    N, C, H, W, F, K = (d[k] for k in ("N", "C", "H", "W", "F", "K"))
    f = Fn([("x", [N, C, H, W], "f32"), ("w", [F, C, K, K], "f32"),
            ("scale", [F], "f32"), ("shift", [F], "f32")])
    y = conv2d(f, "%x", "%w", N, F, H - K + 1, W - K + 1)
    out = f.empty(f.types[y][0])
    y = f.generic(4, [(y, idmap(4)), ("%scale", ["d1"])], [(out, idmap(4))],
                  ["parallel"] * 4, ["%r = arith.mulf %a0, %a1 : f32"], ["%r"])
    y = add_bias(f, y, "%shift", ["d1"])
    return f, unary(f, y, relu)


def b_conv1d_bias_relu(d, p):
    N, C, L, F, K = d["N"], d["C"], d["L"], d["F"], d["K"]
    f = Fn([("x", [N, C, L], "f32"), ("w", [F, C, K], "f32"),
            ("b", [F], "f32")])
    y = conv1d(f, "%x", "%w", N, F, L - K + 1)
    y = add_bias(f, y, "%b", ["d1"])
    return f, unary(f, y, relu)


def b_layernorm_act(d, p):
    M, D = d["M"], d["D"]
    f = Fn([("x", [M, D], "f32"), ("gamma", [D], "f32"), ("beta", [D], "f32")])
    y = layer_norm(f, "%x", 2, [1], "%gamma", ["d1"], "%beta", 1e-5)
    return f, unary(f, y, ACTIVATIONS[p["act"]])


def b_rmsnorm_act(d, p):
    M, D = d["M"], d["D"]
    f = Fn([("x", [M, D], "f32"), ("w", [D], "f32")])
    ss = row_reduce_generic(f, "%x", 2, [1], 0.0,
                            ["%q = arith.mulf %a0, %a0 : f32",
                             "%r = arith.addf %q, %o0 : f32"])
    out = f.empty([M, D])
    y = f.generic(2, [("%x", ["d0", "d1"]), (ss, ["d0"]), ("%w", ["d1"])],
                  [(out, ["d0", "d1"])], ["parallel", "parallel"],
                  [f"%n = arith.constant {float(D)!r} : f32",
                   "%eps = arith.constant 9.99999997E-7 : f32",
                   "%m = arith.divf %a1, %n : f32",
                   "%me = arith.addf %m, %eps : f32",
                   "%rs = math.rsqrt %me : f32",
                   "%y = arith.mulf %a0, %rs : f32",
                   "%r = arith.mulf %y, %a2 : f32"], ["%r"])
    return f, unary(f, y, ACTIVATIONS[p["act"]])


def b_swish_scale_bias(d, p):
    M, N = d["M"], d["N"]
    f = Fn([("x", [M, N], "f32"), ("b", [N], "f32")])
    y = unary(f, "%x", silu)
    y = unary(f, y, lambda x, r: ["%s = arith.constant 1.702 : f32",
                                  f"{r} = arith.mulf {x}, %s : f32"])
    return f, add_bias(f, y, "%b", ["d1"])


def b_bmm_scale_tanh(d, p):
    Bt, M, N, K = d["BATCH"], d["M"], d["N"], d["K"]
    f = Fn([("A", [Bt, M, K], "f32"), ("B", [Bt, K, N], "f32")])
    acc = f.filled([Bt, M, N], 0.0)
    y = f.named("linalg.batch_matmul", ["%A", "%B"], acc)
    s = p["scale"]
    y = unary(f, y, lambda x, r: [f"%s = arith.constant {s!r} : f32",
                                  f"{r} = arith.mulf {x}, %s : f32"])
    return f, unary(f, y, ACTIVATIONS["tanh"])


def softmax_rows(f, y, rank, scale=None):
    """softmax over the last loop of y as a framework importer writes it: row
    max, sum of exp(y*scale - max), division; `scale` multiplies first."""
    keep = [f"d{i}" for i in range(rank - 1)]
    if scale is not None:
        y = unary(f, y, lambda x, r: [f"%sc = arith.constant {scale!r} : f32",
                                      f"{r} = arith.mulf {x}, %sc : f32"])
    m = row_reduce_generic(f, y, rank, [rank - 1], float("-inf"),
                           ["%r = arith.maximumf %a0, %o0 : f32"])
    s = row_reduce_generic(f, y, rank, [rank - 1], 0.0,
                           ["%d = arith.subf %a0, %a1 : f32",
                            "%e = math.exp %d : f32",
                            "%r = arith.addf %e, %o0 : f32"],
                           pre=[(m, keep)])
    out = f.empty(f.types[y][0])
    return f.generic(rank, [(y, idmap(rank)), (m, keep), (s, keep)],
                     [(out, idmap(rank))], ["parallel"] * rank,
                     ["%d = arith.subf %a0, %a1 : f32",
                      "%e = math.exp %d : f32",
                      "%r = arith.divf %e, %a2 : f32"], ["%r"])


def b_matmul_scale_softmax(d, p):
    M, K, N = d["M"], d["K"], d["N"]
    f = Fn([("x", [M, K], "f32"), ("w", [N, K], "f32")])
    return f, softmax_rows(f, linear(f, "%x", "%w", M, N), 2, p["scale"])


def b_attention(d, p):
    BH, S, D = d["BH"], d["S"], d["D"]
    f = Fn([("q", [BH, S, D], "f32"), ("k", [BH, S, D], "f32"),
            ("v", [BH, S, D], "f32")])
    acc = f.filled([BH, S, S], 0.0)
    scores = f.generic(4, [("%q", ["d0", "d1", "d3"]),
                           ("%k", ["d0", "d2", "d3"])],
                       [(acc, ["d0", "d1", "d2"])],
                       ["parallel", "parallel", "parallel", "reduction"],
                       ["%m = arith.mulf %a0, %a1 : f32",
                        "%r = arith.addf %o0, %m : f32"], ["%r"])
    probs = softmax_rows(f, scores, 3, 1.0 / math.sqrt(D))
    out = f.filled([BH, S, D], 0.0)
    return f, f.named("linalg.batch_matmul", [probs, "%v"], out)


def b_conv2d_group_norm(d, p):
    N, C, H, W, F, K, G = (d[k] for k in ("N", "C", "H", "W", "F", "K", "G"))
    OH, OW, CG = H - K + 1, W - K + 1, F // G
    f = Fn([("x", [N, C, H, W], "f32"), ("w", [F, C, K, K], "f32"),
            ("gamma", [F], "f32"), ("beta", [F], "f32")])
    y = conv2d(f, "%x", "%w", N, F, OH, OW)

    def expand(v, shape, groups):
        e = f.fresh()
        f.lines.append(f"{e} = tensor.expand_shape {v} {groups} output_shape "
                       f"[{', '.join(map(str, shape))}] : {f.t(v)} into "
                       f"{ty(shape)}")
        f.types[e] = (shape, "f32")
        return e
    y5 = expand(y, [N, G, CG, OH, OW], "[[0], [1, 2], [3], [4]]")
    g2 = expand("%gamma", [G, CG], "[[0, 1]]")
    b2 = expand("%beta", [G, CG], "[[0, 1]]")
    f.types["%gamma"] = ([F], "f32")
    norm = layer_norm(f, y5, 5, [2, 3, 4], g2, ["d1", "d2"], b2, 1e-5)
    c = f.fresh()
    f.lines.append(f"{c} = tensor.collapse_shape {norm} [[0], [1, 2], [3], "
                   f"[4]] : {f.t(norm)} into {ty([N, F, OH, OW])}")
    f.types[c] = ([N, F, OH, OW], "f32")
    return f, c


def b_gemm_residual_layernorm(d, p):
    M, K, N = d["M"], d["K"], d["N"]
    f = Fn([("x", [M, K], "f32"), ("w", [N, K], "f32"), ("b", [N], "f32"),
            ("res", [M, N], "f32"), ("gamma", [N], "f32"),
            ("beta", [N], "f32")])
    y = add_bias(f, linear(f, "%x", "%w", M, N), "%b", ["d1"])
    out = f.empty([M, N])
    y = f.generic(2, [(y, ["d0", "d1"]), ("%res", ["d0", "d1"])],
                  [(out, ["d0", "d1"])], ["parallel", "parallel"],
                  ["%r = arith.addf %a0, %a1 : f32"], ["%r"])
    return f, layer_norm(f, y, 2, [1], "%gamma", ["d1"], "%beta", 1e-5)


def b_gemm_logsumexp_relu(d, p):
    M, K, N = d["M"], d["K"], d["N"]
    f = Fn([("x", [M, K], "f32"), ("w", [N, K], "f32"), ("b", [N], "f32")])
    y = add_bias(f, linear(f, "%x", "%w", M, N), "%b", ["d1"])
    m = row_reduce_generic(f, y, 2, [1], float("-inf"),
                           ["%r = arith.maximumf %a0, %o0 : f32"])
    s = row_reduce_generic(f, y, 2, [1], 0.0,
                           ["%d = arith.subf %a0, %a1 : f32",
                            "%e = math.exp %d : f32",
                            "%r = arith.addf %e, %o0 : f32"],
                           pre=[(m, ["d0"])])
    out = f.empty([M])
    return f, f.generic(1, [(m, ["d0"]), (s, ["d0"])], [(out, ["d0"])],
                        ["parallel"],
                        ["%l = math.log %a1 : f32",
                         "%lse = arith.addf %l, %a0 : f32"] +
                        relu("%lse", "%r"), ["%r"])


# ---------------------------------------------------------------------------
# The table. dims: benchmark shapes; small: shapes for checks. kb: the
# KernelBench level-1 problem followed and its shapes; scale: the factor
# every dimension (but kernel sizes) was divided by (1: KernelBench's own);
# full: the dims of the full set (KernelBench's own shapes).
# ---------------------------------------------------------------------------

ACT_KB = {"relu": "19_ReLU", "leaky_relu": "20_LeakyReLU",
          "sigmoid": "21_Sigmoid", "tanh": "22_Tanh", "silu": "25_Swish",
          "gelu": "26_GELU_", "softplus": "29_Softplus", "elu": "31_ELU",
          "hardtanh": "32_HardTanh"}
ACT_SMALL = {"B": 3, "D": 37}

PROBLEMS = []


def P(name, category, builder, twin, dims, small, params=None, kb=None,
      kb_shapes=None, scale=1, note="", full=None, full_only=False):
    """full: the dims at KernelBench's own shapes, for the full set. A fused
    chain has no KernelBench shapes: without `full` its full dims are its
    dims with the scale-down undone (every chain is at scale 1, so they are
    its dims). full_only: in the full set only (the bf16 twins of `twin_bf16`
    below), not in the reduced one."""
    if full is None and category != "level1":
        if scale != 1:
            raise SystemExit(f"{name}: a scaled-down chain needs full= dims "
                             "(which of its dims are kernel sizes is its own)")
        full = dict(dims)
    if full is None:
        raise SystemExit(f"{name}: a level-1 problem needs full= dims")
    PROBLEMS.append(dict(name=name, category=category, builder=builder,
                         twin=twin, dims=dims, small=small,
                         params=params or {}, kb=kb, kb_shapes=kb_shapes,
                         scale=scale, note=note, full=full,
                         full_only=full_only))


def twin_bf16(name, note=""):
    """The full set's bf16 twin of the problem `name` (defined above): bf16
    arguments and result, f32 arithmetic and statistics inside (each builder
    says how), KernelBench's shapes. Not in the reduced set."""
    base = next(s for s in PROBLEMS if s["name"] == name)
    what = f"bf16 twin of {name} (KernelBench's problem is f32)"
    P(name + "_bf16", base["category"], base["builder"], base["twin"],
      base["dims"], base["small"], params=dict(base["params"], dtype="bf16"),
      kb=base["kb"], kb_shapes=base["kb_shapes"], scale=base["scale"],
      note=what + ("; " + note if note else ""), full=base["full"],
      full_only=True)


# Level-1 problems of the reduced set with no bf16 twin in the full set, and
# why (the full set's README lists them).
BF16_GEMMS = "the bf16 GEMM family is matmul_square_bf16 and matmul_rect_bf16"
F32_ONLY = {
    "matmul_batched": BF16_GEMMS,
    "matmul_large_k": BF16_GEMMS,
    "matmul_small_k": BF16_GEMMS,
    "matmul_irregular": BF16_GEMMS,
    "matmul_tall_skinny": BF16_GEMMS,
    "matmul_3d_tensor": BF16_GEMMS,
    "matmul_transposed_a": BF16_GEMMS,
    "matmul_transposed_b": BF16_GEMMS,
    "matmul_transposed_both": BF16_GEMMS,
    "matvec": "the f32 problem alone needs 43 GB of host memory",
    "matmul_diag": "a row scaling, which the bf16 element-wise twins cover; "
    "the builder takes no dtype",
    "conv2d_square": "the convolution builders are f32 only",
    "conv2d_asym": "the convolution builders are f32 only",
    "conv2d_depthwise": "the convolution builders are f32 only",
    "conv2d_pointwise": "the convolution builders are f32 only",
    "conv1d": "the convolution builders are f32 only",
    "cumsum": "a masked O(L^2) reduction; a bf16 scan of 32768 adds nothing "
    "but rounding",
}


# matmul family
P("matmul_square", "level1", b_matmul, "matmul", dict(M=1024, N=1024, K=1024),
  dict(M=7, N=9, K=5), kb="1_Square_matrix_multiplication_",
  kb_shapes="N = 4096", scale=4, full=dict(M=4096, N=4096, K=4096))
P("matmul_rect", "level1", b_matmul, "matmul", dict(M=512, N=1024, K=2048),
  dict(M=6, N=10, K=7), kb="2_Standard_matrix_multiplication_",
  kb_shapes="M = 2048, K = 8192, N = 4096", scale=4,
  full=dict(M=2048, N=4096, K=8192))
# bf16 twins of the two: bf16 operands and result, f32 accumulation.
for base, dims, small, kbn, kbs, full in (
        ("matmul_square", dict(M=1024, N=1024, K=1024), dict(M=7, N=9, K=5),
         "1_Square_matrix_multiplication_", "N = 4096",
         dict(M=4096, N=4096, K=4096)),
        ("matmul_rect", dict(M=512, N=1024, K=2048), dict(M=6, N=10, K=7),
         "2_Standard_matrix_multiplication_",
         "M = 2048, K = 8192, N = 4096", dict(M=2048, N=4096, K=8192))):
    P(base + "_bf16", "level1", b_matmul, "matmul", dims, small,
      params=dict(dtype="bf16"), kb=kbn, kb_shapes=kbs, scale=4, full=full,
      note="bf16 twin of " + base + " (KernelBench's problem is f32)")
P("matmul_batched", "level1", b_bmm, "bmm",
  dict(BATCH=32, M=128, N=512, K=256), dict(BATCH=2, M=5, N=6, K=7),
  kb="3_Batched_matrix_multiplication",
  kb_shapes="batch_size = 128, m = 512, k = 1024, n = 2048", scale=4,
  full=dict(BATCH=128, M=512, N=2048, K=1024))
P("matvec", "level1", b_matvec, "matvec", dict(M=128, K=65536),
  dict(M=5, K=33), kb="4_Matrix_vector_multiplication_",
  kb_shapes="M = 2048, K = 1048576 (B: K x 1)", scale=16,
  note="the vector is rank 1 (KernelBench: K x 1)",
  full=dict(M=2048, K=1048576))
P("matrix_scalar", "level1", b_scalar_mul, "scalar_mul",
  dict(M=4096, N=1024), dict(M=4, N=9), params=dict(s=3.14),
  kb="5_Matrix_scalar_multiplication", kb_shapes="M = 65536, N = 16384",
  scale=16, note="the scalar 3.14 is a constant of the function",
  full=dict(M=65536, N=16384))
twin_bf16("matrix_scalar")
P("matmul_large_k", "level1", b_matmul, "matmul",
  dict(M=64, N=64, K=131072), dict(M=3, N=4, K=300),
  kb="6_Matmul_with_large_K_dimension_",
  kb_shapes="M = 256, N = 256, K = 524288", scale=4,
  full=dict(M=256, N=256, K=524288))
P("matmul_small_k", "level1", b_matmul, "matmul",
  dict(M=2048, N=2048, K=4), dict(M=9, N=8, K=2),
  kb="7_Matmul_with_small_K_dimension_",
  kb_shapes="M = 32768, N = 32768, K = 64", scale=16,
  full=dict(M=32768, N=32768, K=64))
P("matmul_irregular", "level1", b_matmul, "matmul",
  dict(M=1025, N=740, K=368), dict(M=7, N=5, K=3),
  kb="8_Matmul_with_irregular_shapes_",
  kb_shapes="M = 8205, K = 2949, N = 5921", scale=8,
  note="each dimension divided by 8, rounded down",
  full=dict(M=8205, N=5921, K=2949))
P("matmul_tall_skinny", "level1", b_matmul, "matmul",
  dict(M=2048, N=2048, K=2), dict(M=8, N=8, K=2),
  kb="9_Tall_skinny_matrix_multiplication_",
  kb_shapes="M = 32768, N = 32 (A: M x N, B: N x M)", scale=16,
  full=dict(M=32768, N=32768, K=32))
P("matmul_3d_tensor", "level1", b_tensor3_matmul, "tensor3_matmul",
  dict(N=4, M=256, K=512, L=192), dict(N=2, M=3, K=4, L=5),
  kb="10_3D_tensor_matrix_multiplication",
  kb_shapes="N = 16, M = 1024, K = 2048, L = 768", scale=4,
  full=dict(N=16, M=1024, K=2048, L=768))
P("matmul_diag", "level1", b_diag_matmul, "diag_matmul",
  dict(N=2048, M=2048), dict(N=5, M=6), kb="12_Matmul_with_diagonal_matrices_",
  kb_shapes="M = 4096, N = 4096", scale=2,
  note="diag(a) @ B written as the row scaling it is",
  full=dict(N=4096, M=4096))
for tag, ta, tb, kbn in (("a", True, False, "16_Matmul_with_transposed_A"),
                         ("b", False, True, "17_Matmul_with_transposed_B"),
                         ("both", True, True,
                          "18_Matmul_with_transposed_both")):
    P(f"matmul_transposed_{tag}", "level1", b_matmul, "matmul_t",
      dict(M=512, N=1024, K=2048), dict(M=4, N=6, K=5),
      params=dict(ta=ta, tb=tb), kb=kbn,
      kb_shapes="M = 2048, K = 8192, N = 4096", scale=4,
      full=dict(M=2048, N=4096, K=8192))

# element-wise activations
for act in ("relu", "leaky_relu", "sigmoid", "tanh", "silu", "gelu",
            "softplus", "elu", "hardtanh"):
    P(act, "level1", b_activation, act, dict(B=256, D=24576), ACT_SMALL,
      params=dict(act=act), kb=ACT_KB[act],
      kb_shapes="batch_size = 4096, dim = 393216", scale=16,
      full=dict(B=4096, D=393216))
    twin_bf16(act)
P("new_gelu", "level1", b_activation, "new_gelu", dict(B=2048, D=2048),
  ACT_SMALL, params=dict(act="new_gelu"), kb="88_MinGPTNewGelu",
  kb_shapes="batch_size = 8192, dim = 8192", scale=4,
  full=dict(B=8192, D=8192))
twin_bf16("new_gelu")

# softmax family
P("softmax", "level1", b_softmax, "softmax", dict(B=256, D=24576), ACT_SMALL,
  kb="23_Softmax", kb_shapes="batch_size = 4096, dim = 393216", scale=16,
  note="linalg.softmax", full=dict(B=4096, D=393216))
twin_bf16("softmax", "row max, sum of exp and division as generics with f32 "
          "statistics (linalg.softmax computes in its tensors' type)")
P("log_softmax", "level1", b_log_softmax, "log_softmax", dict(B=256, D=24576),
  ACT_SMALL, kb="24_LogSoftmax",
  kb_shapes="batch_size = 4096, dim = 393216", scale=16,
  note="row max, sum of exp(x - max), x - max - log(sum)",
  full=dict(B=4096, D=393216))
twin_bf16("log_softmax", "f32 statistics")

# norms
P("layer_norm", "level1", b_layer_norm, "layer_norm",
  dict(B=8, C=32, H=128, W=128), dict(B=2, C=3, H=4, W=5),
  kb="40_LayerNorm",
  kb_shapes="batch_size = 16, features = 64, dim1 = 256, dim2 = 256",
  scale=2, note="normalised over (C, H, W), eps 1e-5, weight and bias inputs",
  full=dict(B=16, C=64, H=256, W=256))
twin_bf16("layer_norm", "bf16 weight and bias, f32 statistics")
P("rms_norm", "level1", b_rms_norm, "rms_norm",
  dict(B=28, C=16, H=128, W=128), dict(B=2, C=3, H=4, W=5), kb="36_RMSNorm_",
  kb_shapes="batch_size = 112, features = 64, dim1 = 512, dim2 = 512",
  scale=4, note="over the feature dim, eps 1e-5",
  full=dict(B=112, C=64, H=512, W=512))
twin_bf16("rms_norm", "f32 statistics")
P("l2_norm", "level1", b_lp_norm, "l2_norm", dict(B=2048, D=4095),
  dict(B=3, D=11), params=dict(p=2), kb="39_L2Norm_",
  kb_shapes="batch_size = 32768, dim = 65535", scale=16,
  full=dict(B=32768, D=65535))
twin_bf16("l2_norm", "f32 statistics")
P("l1_norm", "level1", b_lp_norm, "l1_norm", dict(B=2048, D=4095),
  dict(B=3, D=11), params=dict(p=1), kb="38_L1Norm_",
  kb_shapes="batch_size = 32768, dim = 65535", scale=16,
  full=dict(B=32768, D=65535))
twin_bf16("l1_norm", "f32 statistics")

# reductions over dim 1 of (B, D1, D2)
for kind, kbn in (("sum", "47_Sum_reduction_over_a_dimension"),
                  ("mean", "48_Mean_reduction_over_a_dimension"),
                  ("max", "49_Max_reduction_over_a_dimension")):
    P(f"{kind}_dim1", "level1", b_reduce, f"{kind}_dim1",
      dict(B=16, D1=512, D2=511), dict(B=2, D1=5, D2=3),
      params=dict(kind=kind), kb=kbn,
      kb_shapes="batch_size = 128, dim1 = 4096, dim2 = 4095", scale=8,
      note="keepdim dropped" if kind == "sum" else "",
      full=dict(B=128, D1=4096, D2=4095))
    twin_bf16(f"{kind}_dim1", "an f32 accumulator, rounded once")
P("argmax_dim1", "level1", b_argmax, "argmax_dim1",
  dict(B=16, D1=512, D2=511), dict(B=2, D1=5, D2=3),
  kb="51_Argmax_over_a_dimension",
  kb_shapes="batch_size = 128, dim1 = 4096, dim2 = 4095", scale=8,
  note="i64 indices; a generic with a value and an index output",
  full=dict(B=128, D1=4096, D2=4095))
twin_bf16("argmax_dim1", "the running maximum in bf16 (comparing is exact)")

# convolutions (no bias, stride 1, no padding)
P("conv2d_square", "level1", b_conv2d, "conv2d",
  dict(N=4, C=4, H=256, W=256, F=32, KH=3, KW=3),
  dict(N=2, C=3, H=6, W=5, F=4, KH=3, KW=3),
  kb="63_conv_standard_2D__square_input__square_kernel",
  kb_shapes="batch_size = 16, in_channels = 16, out_channels = 128, "
  "kernel_size = 3, 1024 x 1024", scale=4,
  full=dict(N=16, C=16, H=1024, W=1024, F=128, KH=3, KW=3))
P("conv2d_asym", "level1", b_conv2d, "conv2d",
  dict(N=2, C=16, H=128, W=256, F=32, KH=3, KW=3),
  dict(N=1, C=2, H=5, W=7, F=3, KH=3, KW=3),
  kb="55_conv_standard_2D__asymmetric_input__square_kernel",
  kb_shapes="batch_size = 8, in_channels = 64, out_channels = 128, "
  "kernel_size = 3, 512 x 1024", scale=4,
  full=dict(N=8, C=64, H=512, W=1024, F=128, KH=3, KW=3))
P("conv2d_depthwise", "level1", b_depthwise, "conv2d_depthwise",
  dict(N=16, C=32, H=64, W=128, K=3), dict(N=2, C=3, H=5, W=6, K=3),
  kb="84_conv_depthwise_2D_asymmetric_input_square_kernel",
  kb_shapes="batch_size = 64, in_channels = 128, kernel_size = 3, "
  "256 x 512", scale=4, full=dict(N=64, C=128, H=256, W=512, K=3))
P("conv2d_pointwise", "level1", b_conv2d, "conv2d",
  dict(N=4, C=16, H=256, W=256, F=32, KH=1, KW=1),
  dict(N=2, C=3, H=4, W=5, F=4, KH=1, KW=1), kb="87_conv_pointwise_2D",
  kb_shapes="batch_size = 16, in_channels = 64, out_channels = 128, "
  "1024 x 1024", scale=4,
  full=dict(N=16, C=64, H=1024, W=1024, F=128, KH=1, KW=1))
P("conv1d", "level1", b_conv1d, "conv1d",
  dict(N=8, C=16, L=32768, F=32, K=3), dict(N=2, C=3, L=9, F=4, K=3),
  kb="67_conv_standard_1D",
  kb_shapes="batch_size = 32, in_channels = 64, out_channels = 128, "
  "kernel_size = 3, length = 131072", scale=4,
  full=dict(N=32, C=64, L=131072, F=128, K=3))

# pooling (no padding: linalg pooling has none, and a tensor.pad is not a
# linalg op stark would time)
P("maxpool2d", "level1", b_pool2d, "maxpool2d",
  dict(N=8, C=16, H=128, W=128, K=4, S=1), dict(N=1, C=2, H=7, W=6, K=4, S=1),
  params=dict(kind="max"), kb="42_Max_Pooling_2D",
  kb_shapes="batch_size = 32, channels = 64, 512 x 512, kernel_size = 4, "
  "stride = 1, padding = 1", scale=4, note="padding 0 instead of 1",
  full=dict(N=32, C=64, H=512, W=512, K=4, S=1))
twin_bf16("maxpool2d", "the window's maximum in bf16 (exact)")
P("avgpool2d", "level1", b_pool2d, "avgpool2d",
  dict(N=2, C=8, H=256, W=256, K=11, S=11),
  dict(N=1, C=2, H=23, W=13, K=11, S=11), params=dict(kind="avg"),
  kb="45_Average_Pooling_2D",
  kb_shapes="batch_size = 16, channels = 64, 2048 x 2048, kernel_size = 11",
  scale=8, note="window sum, then divided by 121",
  full=dict(N=16, C=64, H=2048, W=2048, K=11, S=11))
twin_bf16("avgpool2d", "the window sum in f32")

P("cumsum", "level1", b_cumsum, "cumsum", dict(B=2048, L=2048),
  dict(B=3, L=7), kb="89_cumsum", kb_shapes="batch_size = 32768, "
  "input_shape = (32768,), dim = 1", scale=16,
  note="linalg has no scan: a masked reduction, O(L^2) work per row",
  full=dict(B=32768, L=32768))

# fused chains, level-2 style
P("gemm_bias_relu", "fused", b_gemm_bias_act, "gemm_bias_relu",
  dict(M=1024, K=1024, N=1024), dict(M=5, K=6, N=7), params=dict(act="relu"))
P("gemm_bias_gelu", "fused", b_gemm_bias_act, "gemm_bias_gelu",
  dict(M=1024, K=1024, N=1024), dict(M=5, K=6, N=7), params=dict(act="gelu"))
P("gemm_scale_residual", "fused", b_gemm_scale_residual,
  "gemm_scale_residual", dict(M=1024, K=1024, N=1024), dict(M=5, K=6, N=7),
  params=dict(scale=0.5))
P("gemm_sigmoid_sum", "fused", b_gemm_sigmoid_sum, "gemm_sigmoid_sum",
  dict(M=1024, K=1024, N=1024), dict(M=5, K=6, N=7))
P("bmm_scale_tanh", "fused", b_bmm_scale_tanh, "bmm_scale_tanh",
  dict(BATCH=16, M=256, N=256, K=256), dict(BATCH=2, M=3, N=4, K=5),
  params=dict(scale=0.125))
P("conv2d_bias_relu", "fused", b_conv2d_bias_relu, "conv2d_bias_relu",
  dict(N=8, C=16, H=128, W=128, F=32, K=3), dict(N=1, C=2, H=5, W=6, F=3, K=3))
P("conv2d_affine_relu", "fused", b_conv2d_affine_relu, "conv2d_affine_relu",
  dict(N=8, C=16, H=128, W=128, F=32, K=3), dict(N=1, C=2, H=5, W=6, F=3, K=3),
  note="convolution, inference batch norm folded to scale and shift, ReLU")
P("conv1d_bias_relu", "fused", b_conv1d_bias_relu, "conv1d_bias_relu",
  dict(N=8, C=16, L=32768, F=32, K=3), dict(N=2, C=3, L=9, F=4, K=3))
P("layernorm_gelu", "fused", b_layernorm_act, "layernorm_gelu",
  dict(M=4096, D=1024), dict(M=3, D=11), params=dict(act="gelu"))
P("rmsnorm_silu", "fused", b_rmsnorm_act, "rmsnorm_silu",
  dict(M=4096, D=1024), dict(M=3, D=11), params=dict(act="silu"),
  note="eps 1e-6, weight input")
P("swish_scale_bias", "fused", b_swish_scale_bias, "swish_scale_bias",
  dict(M=2048, N=4096), dict(M=3, N=7),
  note="x * sigmoid(x) * 1.702 + b[col]: three framework ops")
P("matmul_scale_softmax", "fused", b_matmul_scale_softmax,
  "matmul_scale_softmax", dict(M=1024, K=1024, N=1024), dict(M=5, K=6, N=7),
  params=dict(scale=0.125),
  note="softmax(x w^T * 0.125) over rows, the softmax as max, exp-sum, divide")
P("attention_small_heads", "fused", b_attention, "attention_small_heads",
  dict(BH=32, S=512, D=64), dict(BH=2, S=5, D=3),
  note="softmax(q k^T / sqrt(d)) v per head: 32 heads of 512 x 64")
P("conv2d_group_norm", "fused", b_conv2d_group_norm, "conv2d_group_norm",
  dict(N=8, C=16, H=66, W=66, F=32, K=3, G=8),
  dict(N=1, C=2, H=5, W=6, F=4, K=3, G=2),
  note="group norm over 8 groups of 4 channels: reshapes around the chain")
P("gemm_residual_layernorm", "fused", b_gemm_residual_layernorm,
  "gemm_residual_layernorm", dict(M=2048, K=1024, N=1024),
  dict(M=5, K=6, N=7), note="layer_norm(x w^T + b + res) over rows")
P("gemm_logsumexp_relu", "fused", b_gemm_logsumexp_relu,
  "gemm_logsumexp_relu", dict(M=2048, K=1024, N=1024), dict(M=5, K=6, N=7),
  note="relu(logsumexp(x w^T + b, dim=1)): one value per row")


# ---------------------------------------------------------------------------
# The full set: every problem of the table at its `full=` dims (KernelBench's
# own shapes; a fused chain's own), and the bf16 twins, in
# bench/problems/full/.
# ---------------------------------------------------------------------------

FULL_DIR = os.path.join(HERE, "full")

# A full-size problem is left out when one correctness trial needs more
# host memory than this for its arguments and its high-precision
# references; the driver may run several searches side by side, and one of
# these alone takes far more than this at its peak (see `estimate`).
HOST_CAP_BYTES = 20e9

ELEMENT_BYTES = {"f32": 4, "bf16": 2, "f16": 2, "f64": 8, "i64": 8}
GEMM_TWINS = ("matmul", "matmul_t", "bmm", "tensor3_matmul")
CONV_TWINS = ("conv2d", "conv2d_depthwise", "conv1d")

# The full set's groups of the problems that are not contractions, by twin
# (the fused chains are all `fused`). A low-precision problem's group has
# its type appended: `elementwise_bf16`, as `gemm_bf16`.
TWIN_GROUPS = {
    "elementwise": ("relu", "leaky_relu", "sigmoid", "tanh", "silu", "gelu",
                    "softplus", "elu", "hardtanh", "new_gelu", "scalar_mul",
                    "diag_matmul"),
    "softmax": ("softmax", "log_softmax"),
    "norm": ("layer_norm", "rms_norm", "l1_norm", "l2_norm"),
    "reduce": ("sum_dim1", "mean_dim1", "max_dim1", "argmax_dim1", "cumsum"),
    "pool": ("maxpool2d", "avgpool2d"),
}
GROUP_OF_TWIN = {t: g for g, ts in TWIN_GROUPS.items() for t in ts}


def family_of(twin, dtype):
    """The contraction family a problem's row is summarised in: `gemm`
    (f32), `gemm_bf16`, `gemv`, `conv`, or `other`. The reduced set's
    headers carry it as their `group`."""
    if twin in GEMM_TWINS:
        return "gemm" if dtype == "f32" else "gemm_" + dtype
    if twin == "matvec":
        return "gemv"
    if twin in CONV_TWINS:
        return "conv"
    return "other"


def group_of(twin, dtype, category):
    """The full set's group of a problem, what `stark.bench --names` selects
    a device call's share by: the contraction families (gemm, gemm_bf16,
    gemv, conv), `fused` for the chains, else the twin's TWIN_GROUPS entry,
    with `_<dtype>` for a low-precision problem."""
    family = family_of(twin, dtype)
    if family != "other":
        return family
    base = "fused" if category == "fused" else GROUP_OF_TWIN[twin]
    return base if dtype == "f32" else f"{base}_{dtype}"


def flop_count(twin, d):
    """Multiply-adds count two: what TFLOP/s is measured against. None for
    problems that are not contractions."""
    if twin in ("matmul", "matmul_t"):
        return 2 * d["M"] * d["N"] * d["K"]
    if twin == "bmm":
        return 2 * d["BATCH"] * d["M"] * d["N"] * d["K"]
    if twin == "tensor3_matmul":
        return 2 * d["N"] * d["M"] * d["K"] * d["L"]
    if twin == "matvec":
        return 2 * d["M"] * d["K"]
    if twin == "conv2d":
        oh, ow = d["H"] - d["KH"] + 1, d["W"] - d["KW"] + 1
        return 2 * d["N"] * d["F"] * oh * ow * d["C"] * d["KH"] * d["KW"]
    if twin == "conv2d_depthwise":
        oh, ow = d["H"] - d["K"] + 1, d["W"] - d["K"] + 1
        return 2 * d["N"] * d["C"] * oh * ow * d["K"] * d["K"]
    if twin == "conv1d":
        return 2 * d["N"] * d["F"] * (d["L"] - d["K"] + 1) * d["C"] * d["K"]
    return None


def numel(shape):
    n = 1
    for x in shape:
        n *= x
    return n


# Ops whose loops include a reduction, besides generics with a "reduction"
# iterator.
REDUCING_OPS = ("linalg.matmul", "linalg.batch_matmul", "linalg.matvec",
                "linalg.conv_", "linalg.depthwise_conv_", "linalg.pooling_",
                "linalg.reduce", "linalg.softmax")


def has_reduction(fn):
    return any('"reduction"' in l or any(l.split(" = ", 1)[-1].startswith(op)
                                         for op in REDUCING_OPS)
               for l in fn.lines)


def reference_type(fn, result):
    """The element type of stark-eval's high-precision reference of the
    problem (docs/evaluation.md, "References"), from its signature (the
    arguments and the result): f32 for an f16 or bf16 problem, f64 for an
    f32 problem with a reduction, else none."""
    types = {d for _, _, d in fn.args} | {fn.types[result][1]}
    if types & {"bf16", "f16"}:
        return "f32"
    if "f32" in types and not types & {"f64"} and has_reduction(fn):
        return "f64"
    return None


# Host seconds of one evaluation per element of the arguments (the inputs
# and the result), by the high-precision reference's type: generating the
# inputs, running the baseline and the candidate on every correctness trial
# and reading their outputs back, comparing. Measured with nothing else
# running (bench/results/eval-cost-2026-12-06d-h100/after: reduced gelu,
# 128 ns; matmul_rect_bf16, 138 ns; softmax, sum_dim1, matmul_square and
# conv2d_square with f64 references, 175-265 ns) and scaled linearly; the
# baseline's device time comes on top, and parallel searches share the
# host's cores, so a search takes longer.
EVAL_HOST_SECONDS_PER_ELEMENT = {None: 130e-9, "f32": 140e-9, "f64": 230e-9}


def estimate(fn, result):
    """Host memory of one correctness trial, from what stark-eval holds
    (docs/evaluation.md): every argument (inputs and the output) in its own
    type four times (the generated inputs, the candidate's copy, the
    baseline's and the candidate's results), and, where the problem has a
    high-precision reference (f64 for an f32 problem with a reduction, f32
    for a bf16 one), every argument twice more in that type (the reference's
    widened inputs and its results). `arguments + reference` is what
    HOST_CAP_BYTES bounds. Also a rough floor on one evaluation's host
    seconds (EVAL_HOST_SECONDS_PER_ELEMENT)."""
    shapes = [(s, d) for _, s, d in fn.args] + [fn.types[result]]
    elements = sum(numel(s) for s, _ in shapes)
    arg_bytes = sum(numel(s) * ELEMENT_BYTES[d] for s, d in shapes)
    ref = reference_type(fn, result)
    ref_bytes = 2 * ELEMENT_BYTES[ref] * elements if ref else 0
    return {"elements": elements, "argument_bytes": arg_bytes,
            "reference_type": ref, "reference_bytes": ref_bytes,
            "trial_peak_bytes": 4 * arg_bytes + ref_bytes,
            "evaluation_host_seconds": round(
                elements * EVAL_HOST_SECONDS_PER_ELEMENT[ref], 1)}


def full_status(spec, cap=HOST_CAP_BYTES):
    """(estimate, reason it is left out or None) of a problem's full shape."""
    fn, result = spec["builder"](spec["full"], spec["params"])
    est = estimate(fn, result)
    need = est["argument_bytes"] + est["reference_bytes"]
    why = None
    if need > cap:
        ref = est["reference_type"]
        what = f"arguments and {ref} references" if ref else "arguments"
        why = (f"{what} need {need / 1e9:.1f} GB of "
               f"host memory per trial, above the {cap / 1e9:.0f} GB cap "
               f"(peak {est['trial_peak_bytes'] / 1e9:.0f} GB)")
    return est, why


def check_size(spec, fn):
    for a, s, _ in fn.args:
        n = numel(s)
        if n > MAX_ELEMENTS:
            raise SystemExit(f"{spec['name']}: argument {a} has {n} elements, "
                             f"above the cap {MAX_ELEMENTS}")


def render(spec, small=False, full=False):
    dims = spec["small"] if small else (spec["full"] if full else
                                        spec["dims"])
    fn, result = spec["builder"](dims, spec["params"])
    if not small and not full:
        check_size(spec, fn)
    rshape, rdt = fn.types[result]
    sfn, sres = spec["builder"](spec["small"], spec["params"])
    dtype = spec["params"].get("dtype", "f32")
    flops = flop_count(spec["twin"], dims)
    meta = {
        "check": {"dims": spec["small"],
                  "args": [s for _, s, _ in sfn.args],
                  "result": sfn.types[sres][0]},
        "name": spec["name"],
        "category": spec["category"],
        "twin": spec["twin"],
        "dtype": dtype,
        "group": (group_of(spec["twin"], dtype, spec["category"]) if full
                  else family_of(spec["twin"], dtype)),
        "set": "full" if full else ("small" if small else "reduced"),
        "flops": flops,
        "args": [{"name": a, "shape": s, "dtype": d} for a, s, d in fn.args],
        "result": {"shape": rshape, "dtype": rdt},
        "dims": dims,
        "params": spec["params"],
        "kernelbench": spec["kb"],
        "kernelbench_shapes": spec["kb_shapes"],
        "scaled_down": (spec["scale"] if spec["scale"] != 1 and not full
                        else None),
    }
    if full:
        meta["host"] = estimate(fn, result)
    lines = [f"// stark-bench: {json.dumps(meta, sort_keys=True)}"]
    title = spec["name"].replace("_", " ")
    lines.append(f"// {title} ({spec['category']}), {dtype}, generated by "
                 "bench/problems/gen.py: edit the table there.")
    if spec["kb"]:
        lines.append(f"// KernelBench level 1 {spec['kb']}: "
                     f"{spec['kb_shapes']}.")
    if full and spec["kb"]:
        lines.append("// Full set: KernelBench's own shapes.")
    elif full:
        lines.append("// Full set: the chain's own shapes (it follows no "
                     "KernelBench problem and is not scaled down).")
    elif spec["scale"] != 1:
        lines.append(f"// Scaled down: every dimension but kernel sizes "
                     f"divided by {spec['scale']} to fit the suite's size "
                     "caps.")
    if spec["category"] == "fused":
        lines.append("// Level-2 style chain, one linalg op per framework op;"
                     " shapes chosen for the suite's time budget.")
    if spec["note"]:
        lines.append(f"// Note: {spec['note']}.")
    if small:
        lines.append("// Small variant for checks, not for timing.")
    return "\n".join(lines) + "\n" + fn.text(result)


def full_rows(cap=HOST_CAP_BYTES):
    """Every problem of the full set's table: (spec, dtype, group, estimate,
    reason it is left out or None)."""
    rows = []
    for spec in PROBLEMS:
        est, why = full_status(spec, cap)
        dtype = spec["params"].get("dtype", "f32")
        rows.append((spec, dtype, group_of(spec["twin"], dtype,
                                           spec["category"]), est, why))
    return rows


def full_readme(cap=HOST_CAP_BYTES):
    """bench/problems/full/README.md: the set, its groups, each problem's
    size, the problems left out with the reason, and those without a bf16
    twin."""
    rows = full_rows(cap)
    kept = [r for r in rows if r[4] is None]
    n16 = sum(1 for r in kept if r[1] != "f32")
    names = {spec["name"] for spec in PROBLEMS}
    L = ["# The full set (generated by bench/problems/gen.py --set full)", "",
         "Every problem of the suite at KernelBench's own shapes: each "
         "level-1 file at the shapes of the KernelBench problem it names "
         "(ScalingIntelligence/KernelBench, level 1). The fused chains follow "
         "no KernelBench problem; their full dims are the table's dims with "
         "the scale-down undone, and as no chain is scaled down they are the "
         "reduced set's own. Beside them, bf16 twins at the same shapes: of "
         "matmul_square and matmul_rect (bf16 operands, f32 accumulation) and "
         "of the element-wise, softmax, norm, reduction and pooling problems "
         "(bf16 arguments and result, f32 arithmetic and statistics inside, "
         "each rounded to bf16 once). Run it with `python3 -m stark.bench "
         "--set full`; `--names` takes the groups below "
         "(docs/benchmarks.md, \"The full set\", says how to split the set "
         "over device calls).", "",
         f"In the set: {len(kept)} problems ({len(kept) - n16} f32, {n16} "
         f"bf16); left out for host memory: {len(rows) - len(kept)} of the "
         f"{len(rows)} below.", "",
         "*args*: all arguments and the result in their own type; *ref*: "
         "the high-precision reference's widened arguments and results "
         "(f64 for an f32 problem with a reduction, f32 for a bf16 problem; "
         "stark-eval holds both on the host); *peak*: one correctness "
         "trial's host memory in stark-eval (4 x args + ref). A problem "
         f"whose args + ref exceed {cap / 1e9:.0f} GB is left out. *host s*: "
         "a floor on one evaluation's host seconds (input generation, "
         "read-backs and comparisons, measured per element on the reduced "
         "set and scaled; `EVAL_HOST_SECONDS_PER_ELEMENT`); a search pays it "
         "for the problem's own evaluation and for every candidate, plus "
         "the baseline's device time.", "",
         "| problem | group | shapes | GFLOP | args GB | ref GB | peak GB "
         "| host s | in the set |", "|---|---|---|---|---|---|---|---|---|"]
    for spec, dtype, group, est, why in rows:
        flops = flop_count(spec["twin"], spec["full"])
        dims = ", ".join(f"{k}={v}" for k, v in spec["full"].items())
        ref = (f"{est['reference_bytes'] / 1e9:.2f} ({est['reference_type']})"
               if est["reference_type"] else "0")
        L.append(f"| {spec['name']} | {group} | "
                 f"{dims} | {'-' if flops is None else f'{flops / 1e9:.1f}'}"
                 f" | {est['argument_bytes'] / 1e9:.2f} | {ref} | "
                 f"{est['trial_peak_bytes'] / 1e9:.1f} | "
                 f"{est['evaluation_host_seconds']:.0f} | "
                 f"{'yes' if why is None else 'no: ' + why} |")
    L += ["", "## Groups (in the set)", ""]
    groups = {}
    for spec, dtype, group, est, why in kept:
        groups.setdefault(group, []).append(spec["name"])
    for g in sorted(groups):
        L.append(f"- `{g}` ({len(groups[g])}): {', '.join(groups[g])}")
    L += ["", "## f32 only", "",
          "Problems without a bf16 twin: every fused chain, and"]
    for spec in PROBLEMS:
        if (spec["category"] == "level1" and not spec["full_only"] and
                spec["params"].get("dtype", "f32") == "f32" and
                spec["name"] + "_bf16" not in names):
            L.append(f"- {spec['name']}: {F32_ONLY[spec['name']]}")
    L += ["", "## Notes from the table", "",
          "How a problem is written, where it departs from KernelBench's "
          "(a note on the scale-down concerns the reduced set only):", ""]
    for spec in PROBLEMS:
        if spec["category"] == "level1" and not spec["full_only"] and \
                spec["note"] and not spec["note"].startswith("bf16 twin"):
            L.append(f"- {spec['name']}: {spec['note']}")
    return "\n".join(L) + "\n"


def outputs(which, cap=HOST_CAP_BYTES):
    """{file name: text} of a set: `reduced` or `full`."""
    if which == "reduced":
        return {s["name"] + ".mlir": render(s) for s in PROBLEMS
                if not s["full_only"]}
    out = {s["name"] + ".mlir": render(s, full=True) for s in PROBLEMS
           if full_status(s, cap)[1] is None}
    out["README.md"] = full_readme(cap)
    return out


def signature_mismatches(meta, text):
    """The header's argument and result types against @main's signature."""
    m = re.search(r"func\.func @main\((.*)\) -> (tensor<[^>]*>) \{", text)
    if not m:
        return ["no 'func.func @main(...) -> tensor<...>' line"]
    header = [ty(a["shape"], a["dtype"]) for a in meta["args"]]
    header_result = ty(meta["result"]["shape"], meta["result"]["dtype"])
    found = re.findall(r"%\w+: (tensor<[^>]*>)", m.group(1))
    why = []
    if found != header:
        why.append(f"header arguments {header} != @main's {found}")
    if m.group(2) != header_result:
        why.append(f"header result {header_result} != @main's {m.group(2)}")
    return why


TORCH_DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16",
                "i64": "int64", "f64": "float64"}


def twin_shape_mismatches(twins, meta):
    """Where torch imports: the twin, run on meta tensors (shapes only, no
    memory) of the header's arguments, gives the header's result shape and
    type. Without torch there is nothing to run it on."""
    try:
        import torch
    except Exception:
        return []
    xs = [torch.empty(a["shape"], device="meta",
                      dtype=getattr(torch, TORCH_DTYPES[a["dtype"]]))
          for a in meta["args"]]
    try:
        got = twins.TWINS[meta["twin"]](*xs, d=meta["dims"],
                                        p=meta["params"])
    except Exception as e:
        return [f"the twin does not run on meta tensors: {e!r}"[:300]]
    want = getattr(torch, TORCH_DTYPES[meta["result"]["dtype"]])
    why = []
    if list(got.shape) != meta["result"]["shape"]:
        why.append(f"twin result shape {list(got.shape)} != "
                   f"{meta['result']['shape']}")
    if got.dtype != want:
        why.append(f"twin result type {got.dtype} != {want}")
    return why


def lint(stark_opt, folder):
    """Every problem file: header complete, twin and reference known, the
    reference runs on the check shapes, and stark-opt parses the file and
    finds at least one hot op in it."""
    import subprocess
    sys.path.insert(0, HERE)
    import twins
    bad = 0
    files = sorted(f for f in os.listdir(folder) if f.endswith(".mlir"))
    for fname in files:
        path = os.path.join(folder, fname)
        with open(path) as f:
            first = f.readline()
        why = []
        if not first.startswith("// stark-bench: "):
            why.append("no '// stark-bench:' header")
        else:
            meta = json.loads(first[len("// stark-bench: "):])
            for key in ("name", "category", "twin", "args", "result", "dims",
                        "params", "check", "scaled_down", "dtype", "group",
                        "set", "flops"):
                if key not in meta:
                    why.append(f"header lacks '{key}'")
            if meta.get("name") + ".mlir" != fname:
                why.append("header name differs from the file name")
            if meta.get("category") not in ("level1", "fused"):
                why.append(f"unknown category {meta.get('category')!r}")
            tw = meta.get("twin")
            if tw not in twins.TWINS or tw not in twins.REFS:
                why.append(f"twin {tw!r} missing from twins.py")
            elif "check" in meta:
                ref = twins.REFS[tw](*twins.check_inputs(meta),
                                     d=meta["check"]["dims"], p=meta["params"])
                if ref.shape != meta["check"]["result"]:
                    why.append(f"reference shape {ref.shape} != "
                               f"{meta['check']['result']}")
                with open(path) as f:
                    why += signature_mismatches(meta, f.read())
                why += twin_shape_mismatches(twins, meta)
        proc = subprocess.run(
            [stark_opt, path, "--stark-hot-ops=profile=h200 top-k=0",
             "--mlir-print-op-on-diagnostic=false", "-o", os.devnull],
            capture_output=True, text=True)
        hot = proc.stderr.count("remark: hot op #")
        if proc.returncode != 0:
            why.append("stark-opt failed: " + proc.stderr.strip()[:300])
        elif hot == 0:
            why.append("no hot op")
        if why:
            bad += 1
            print(f"FAIL {fname}: " + "; ".join(why))
        else:
            print(f"ok {fname}: {hot} hot ops")
    counts = {}
    for fname in files:
        with open(os.path.join(folder, fname)) as f:
            line = f.readline()
        if line.startswith("// stark-bench: "):
            c = json.loads(line[len("// stark-bench: "):]).get("category")
            counts[c] = counts.get(c, 0) + 1
    print(f"problems: {len(files)}, " + ", ".join(
        f"{k} {v}" for k, v in sorted(counts.items())) + f", failing: {bad}")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", metavar="STARK_OPT")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--small", metavar="DIR")
    ap.add_argument("--set", choices=["reduced", "full"], default="reduced",
                    help="the suite's shapes (bench/problems) or KernelBench's"
                    " own (bench/problems/full)")
    ap.add_argument("--dir", default=None,
                    help="where the set's files are (default: its folder)")
    ap.add_argument("--host-cap-gb", type=float, default=HOST_CAP_BYTES / 1e9,
                    help="full set: leave out problems whose arguments and "
                    "f64 references need more host memory (written elsewhere "
                    "than the default folder only)")
    args = ap.parse_args()
    folder = args.dir or (FULL_DIR if args.set == "full" else HERE)
    if args.lint:
        return lint(args.lint, folder)
    names = [p["name"] for p in PROBLEMS]
    assert len(names) == len(set(names)), "duplicate problem names"
    if args.small:
        os.makedirs(args.small, exist_ok=True)
        for spec in PROBLEMS:
            with open(os.path.join(args.small, spec["name"] + ".mlir"),
                      "w") as f:
                f.write(render(spec, small=True))
        return 0
    cap = args.host_cap_gb * 1e9
    if cap != HOST_CAP_BYTES and folder == FULL_DIR:
        raise SystemExit("--host-cap-gb: write into another --dir; the "
                         "checked-in full set uses the default cap")
    files = outputs(args.set, cap)
    if not args.check:
        os.makedirs(folder, exist_ok=True)
        for fname, text in files.items():
            with open(os.path.join(folder, fname), "w") as f:
                f.write(text)
        return 0
    stale = []
    for fname, text in files.items():
        path = os.path.join(folder, fname)
        try:
            with open(path) as f:
                if f.read() != text:
                    stale.append(path)
        except OSError:
            stale.append(path)
    extra = [f for f in os.listdir(folder)
             if f.endswith(".mlir") and f not in files]
    for p in stale:
        print(f"stale: {p} (run bench/problems/gen.py --set {args.set})")
    for f in extra:
        print(f"not in the table: {f}")
    return 1 if stale or extra else 0


if __name__ == "__main__":
    sys.exit(main())
