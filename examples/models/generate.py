#!/usr/bin/env python3
"""Writes the example models as linalg on tensors, the way torch-mlir emits them.

Each model is a function @forward on tensors; its weights are ml_program
globals read with ml_program.global_load_const, the weights of linear layers
stored (out, in) and transposed before the matmul, as torch-mlir does.

  python3 examples/models/generate.py            # the full-size examples
  python3 examples/models/generate.py --small DIR  # scaled-down variants

Full size: weights are splats (the files stay small; the work is the same).
Scaled down (what the CPU tests run): weights are small pseudo-random dense
constants from a fixed linear congruential generator, so a wrong kernel
shows in the outputs.
"""

import argparse
import math
import os
import sys


class Rng:
    """A fixed LCG: the same weights on every machine and Python version."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def uniform(self, scale):
        self.state = (1664525 * self.state + 1013904223) & 0xFFFFFFFF
        return (self.state / 2**32 - 0.5) * 2 * scale


def fmt(v):
    return f"{v:.6e}"


class Module:
    """Collects globals and the body of @forward, with fresh SSA names."""

    def __init__(self, name, dense, seed=1):
        self.name = name
        self.dense = dense
        self.rng = Rng(seed)
        self.globals = []
        self.body = []
        self.count = 0
        self.maps = {}

    def fresh(self, hint="v"):
        self.count += 1
        return f"%{hint}{self.count}"

    def line(self, text):
        self.body.append("  " + text)

    def weight(self, name, shape, scale, splat, offset=0.0):
        """An ml_program global holding a weight, loaded where it is used:
        dense values offset + uniform(-scale, scale), or the splat."""
        ty = tensor(shape)
        if self.dense:
            n = math.prod(shape)
            values = [fmt(offset + self.rng.uniform(scale)) for _ in range(n)]
            value = f"dense<{nest(values, shape)}> : {ty}"
        else:
            value = f"dense<{fmt(splat)}> : {ty}"
        self.globals.append(f"ml_program.global private @{name}({value}) : {ty}")
        v = self.fresh(name.replace(".", "_") + "_")
        self.line(f"{v} = ml_program.global_load_const @{name} : {ty}")
        return v

    def empty(self, shape):
        v = self.fresh("e")
        self.line(f"{v} = tensor.empty() : {tensor(shape)}")
        return v

    def const(self, value):
        v = self.fresh("c")
        self.line(f"{v} = arith.constant {fmt(value)} : f32")
        return v

    def zeros(self, shape):
        zero = self.const(0.0)
        e = self.empty(shape)
        v = self.fresh("fill")
        self.line(f"{v} = linalg.fill ins({zero} : f32) outs({e} : {tensor(shape)}) -> {tensor(shape)}")
        return v

    def generic(self, ins, out_shape, in_maps, out_map, iterators, body, init=None):
        """A linalg.generic; `body(args)` returns (lines, yielded value)."""
        rank = len(iterators)
        dims = ", ".join(f"d{i}" for i in range(rank))
        maps = [f"affine_map<({dims}) -> ({m})>" for m in in_maps + [out_map]]
        its = ", ".join(f'"{i}"' for i in iterators)
        out = init if init else self.empty(out_shape)
        v = self.fresh("g")
        ins_text = ", ".join(x for x, _ in ins)
        ins_types = ", ".join(tensor(s) for _, s in ins)
        args = [f"%in{i}" for i in range(len(ins))] + ["%out"]
        lines, result = body(args)
        self.line(f"{v} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                  f"iterator_types = [{its}]}}")
        self.line(f"    ins({ins_text} : {ins_types}) outs({out} : {tensor(out_shape)}) {{")
        self.line(f"^bb0({', '.join(a + ': f32' for a in args)}):")
        for l in lines:
            self.line("  " + l)
        self.line(f"  linalg.yield {result} : f32")
        self.line(f"}} -> {tensor(out_shape)}")
        return v

    def linear(self, x, rows, fan_in, fan_out, name, bias=True):
        """torch's nn.Linear: weight (out, in), transposed, matmul, bias."""
        w = self.weight(f"{name}.weight", [fan_out, fan_in], 1 / math.sqrt(fan_in),
                        1 / fan_in)
        et = self.empty([fan_in, fan_out])
        wt = self.fresh("wt")
        self.line(f"{wt} = linalg.transpose ins({w} : {tensor([fan_out, fan_in])}) "
                  f"outs({et} : {tensor([fan_in, fan_out])}) permutation = [1, 0]")
        acc = self.zeros([rows, fan_out])
        mm = self.fresh("mm")
        self.line(f"{mm} = linalg.matmul ins({x}, {wt} : {tensor([rows, fan_in])}, "
                  f"{tensor([fan_in, fan_out])}) outs({acc} : {tensor([rows, fan_out])}) "
                  f"-> {tensor([rows, fan_out])}")
        if not bias:
            return mm
        b = self.weight(f"{name}.bias", [fan_out], 0.1, 0.01)
        return self.generic([(mm, [rows, fan_out]), (b, [fan_out])], [rows, fan_out],
                            ["d0, d1", "d1"], "d0, d1", ["parallel", "parallel"],
                            lambda a: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"))

    def elementwise(self, x, shape, lines_of, result="%r"):
        rank = len(shape)
        m = ", ".join(f"d{i}" for i in range(rank))
        return self.generic([(x, shape)], shape, [m], m, ["parallel"] * rank,
                            lambda a: (lines_of(a[0]), result))

    def add(self, x, y, shape):
        rank = len(shape)
        m = ", ".join(f"d{i}" for i in range(rank))
        return self.generic([(x, shape), (y, shape)], shape, [m, m], m,
                            ["parallel"] * rank,
                            lambda a: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"))

    def relu(self, x, shape):
        zero = self.const(0.0)
        return self.elementwise(x, shape, lambda a: [f"%r = arith.maximumf {a}, {zero} : f32"])

    def layer_norm(self, x, rows, cols, name, eps=1e-5):
        """torch's LayerNorm over the last dimension, as torch-mlir decomposes it."""
        gamma = self.weight(f"{name}.weight", [cols], 0.1, 1.0, offset=1.0)
        beta = self.weight(f"{name}.bias", [cols], 0.1, 0.0)
        n = self.const(float(cols))
        sum_init = self.zeros([rows])
        s = self.generic([(x, [rows, cols])], [rows], ["d0, d1"], "d0", ["parallel", "reduction"],
                         lambda a: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"), init=sum_init)
        mean = self.generic([(s, [rows])], [rows], ["d0"], "d0", ["parallel"],
                            lambda a: ([f"%m = arith.divf {a[0]}, {n} : f32"], "%m"))
        var_init = self.zeros([rows])
        var_sum = self.generic([(x, [rows, cols]), (mean, [rows])], [rows], ["d0, d1", "d0"], "d0",
                               ["parallel", "reduction"],
                               lambda a: ([f"%d = arith.subf {a[0]}, {a[1]} : f32",
                                           "%q = arith.mulf %d, %d : f32",
                                           f"%s = arith.addf %q, {a[2]} : f32"], "%s"),
                               init=var_init)
        e = self.const(eps)
        return self.generic(
            [(x, [rows, cols]), (mean, [rows]), (var_sum, [rows]), (gamma, [cols]), (beta, [cols])],
            [rows, cols], ["d0, d1", "d0", "d0", "d1", "d1"], "d0, d1", ["parallel", "parallel"],
            lambda a: ([f"%var = arith.divf {a[2]}, {n} : f32",
                        f"%ve = arith.addf %var, {e} : f32",
                        "%rs = math.rsqrt %ve : f32",
                        f"%d = arith.subf {a[0]}, {a[1]} : f32",
                        "%nrm = arith.mulf %d, %rs : f32",
                        f"%sc = arith.mulf %nrm, {a[3]} : f32",
                        f"%r = arith.addf %sc, {a[4]} : f32"], "%r"))

    def text(self, signature, results, header):
        out = [f"// {line}".rstrip() for line in header.splitlines()]
        out.append("// Generated by examples/models/generate.py: edit the generator.")
        out += self.globals
        out.append(f"func.func @forward({signature}) -> {results} {{")
        out += self.body
        out.append("}")
        return "\n".join(out) + "\n"


def tensor(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def nest(values, shape):
    if len(shape) == 1:
        return "[" + ", ".join(values) + "]"
    step = len(values) // shape[0]
    return "[" + ", ".join(nest(values[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def transformer(seq, hidden, heads, ffn, dense):
    """A BERT-style encoder layer (post-norm): self-attention, FFN with erf GELU."""
    m = Module("transformer", dense, seed=7)
    hd = hidden // heads
    x = "%x"
    q = m.linear(x, seq, hidden, hidden, "attn.q")
    k = m.linear(x, seq, hidden, hidden, "attn.k")
    v = m.linear(x, seq, hidden, hidden, "attn.v")

    def heads_of(t, perm, out_shape):
        ex = m.fresh("ex")
        m.line(f"{ex} = tensor.expand_shape {t} [[0], [1, 2]] output_shape [{seq}, {heads}, {hd}] "
               f": {tensor([seq, hidden])} into {tensor([seq, heads, hd])}")
        e = m.empty(out_shape)
        tr = m.fresh("tr")
        m.line(f"{tr} = linalg.transpose ins({ex} : {tensor([seq, heads, hd])}) "
               f"outs({e} : {tensor(out_shape)}) permutation = {perm}")
        return tr

    qh = heads_of(q, "[1, 0, 2]", [heads, seq, hd])
    kh = heads_of(k, "[1, 2, 0]", [heads, hd, seq])
    vh = heads_of(v, "[1, 0, 2]", [heads, seq, hd])
    acc = m.zeros([heads, seq, seq])
    sc = m.fresh("scores")
    m.line(f"{sc} = linalg.batch_matmul ins({qh}, {kh} : {tensor([heads, seq, hd])}, "
           f"{tensor([heads, hd, seq])}) outs({acc} : {tensor([heads, seq, seq])}) "
           f"-> {tensor([heads, seq, seq])}")
    scale = m.const(1 / math.sqrt(hd))
    three = ["parallel"] * 3
    scaled = m.generic([(sc, [heads, seq, seq])], [heads, seq, seq], ["d0, d1, d2"], "d0, d1, d2",
                       three, lambda a: ([f"%r = arith.mulf {a[0]}, {scale} : f32"], "%r"))
    # softmax over the last dimension: max, exp(x - max), sum, divide
    ninf = m.fresh("ninf")
    m.line(f"{ninf} = arith.constant 0xFF800000 : f32")
    e = m.empty([heads, seq])
    mi = m.fresh("fill")
    m.line(f"{mi} = linalg.fill ins({ninf} : f32) outs({e} : {tensor([heads, seq])}) -> {tensor([heads, seq])}")
    red = ["parallel", "parallel", "reduction"]
    mx = m.generic([(scaled, [heads, seq, seq])], [heads, seq], ["d0, d1, d2"], "d0, d1", red,
                   lambda a: ([f"%r = arith.maximumf {a[0]}, {a[1]} : f32"], "%r"), init=mi)
    ex = m.generic([(scaled, [heads, seq, seq]), (mx, [heads, seq])], [heads, seq, seq],
                   ["d0, d1, d2", "d0, d1"], "d0, d1, d2", three,
                   lambda a: ([f"%d = arith.subf {a[0]}, {a[1]} : f32", "%r = math.exp %d : f32"], "%r"))
    si = m.zeros([heads, seq])
    sm = m.generic([(ex, [heads, seq, seq])], [heads, seq], ["d0, d1, d2"], "d0, d1", red,
                   lambda a: ([f"%r = arith.addf {a[0]}, {a[1]} : f32"], "%r"), init=si)
    p = m.generic([(ex, [heads, seq, seq]), (sm, [heads, seq])], [heads, seq, seq],
                  ["d0, d1, d2", "d0, d1"], "d0, d1, d2", three,
                  lambda a: ([f"%r = arith.divf {a[0]}, {a[1]} : f32"], "%r"))
    acc2 = m.zeros([heads, seq, hd])
    ctx = m.fresh("ctx")
    m.line(f"{ctx} = linalg.batch_matmul ins({p}, {vh} : {tensor([heads, seq, seq])}, "
           f"{tensor([heads, seq, hd])}) outs({acc2} : {tensor([heads, seq, hd])}) "
           f"-> {tensor([heads, seq, hd])}")
    e = m.empty([seq, heads, hd])
    ct = m.fresh("tr")
    m.line(f"{ct} = linalg.transpose ins({ctx} : {tensor([heads, seq, hd])}) "
           f"outs({e} : {tensor([seq, heads, hd])}) permutation = [1, 0, 2]")
    cc = m.fresh("co")
    m.line(f"{cc} = tensor.collapse_shape {ct} [[0], [1, 2]] : {tensor([seq, heads, hd])} "
           f"into {tensor([seq, hidden])}")
    o = m.linear(cc, seq, hidden, hidden, "attn.out")
    r1 = m.add(o, x, [seq, hidden])
    n1 = m.layer_norm(r1, seq, hidden, "norm1")
    h = m.linear(n1, seq, hidden, ffn, "ffn.up")
    half = m.const(0.5)
    one = m.const(1.0)
    rsqrt2 = m.const(1 / math.sqrt(2))
    g = m.elementwise(h, [seq, ffn], lambda a: [
        f"%s = arith.mulf {a}, {rsqrt2} : f32", "%erf = math.erf %s : f32",
        f"%p = arith.addf %erf, {one} : f32", f"%hx = arith.mulf {a}, {half} : f32",
        "%r = arith.mulf %hx, %p : f32"])
    d = m.linear(g, seq, ffn, hidden, "ffn.down")
    r2 = m.add(d, n1, [seq, hidden])
    out = m.layer_norm(r2, seq, hidden, "norm2")
    m.line(f"return {out} : {tensor([seq, hidden])}")
    header = (f"A transformer encoder layer (BERT-style, post-norm): sequence {seq}, hidden {hidden},\n"
              f"{heads} heads, FFN {ffn}; layer norms, erf GELU, softmax.")
    return m.text(f"%x: {tensor([seq, hidden])}", tensor([seq, hidden]), header)


def resnet_block(channels, size, dense):
    """A ResNet basic block (NCHW): conv3x3-BN-ReLU-conv3x3-BN + identity, ReLU."""
    m = Module("resnet", dense, seed=11)
    shape = [1, channels, size, size]
    padded = [1, channels, size + 2, size + 2]

    def conv_bn(x, name):
        zero = m.const(0.0)
        pd = m.fresh("pad")
        m.line(f"{pd} = tensor.pad {x} low[0, 0, 1, 1] high[0, 0, 1, 1] {{")
        m.line("^bb0(%i: index, %j: index, %k: index, %l: index):")
        m.line(f"  tensor.yield {zero} : f32")
        m.line(f"}} : {tensor(shape)} to {tensor(padded)}")
        w = m.weight(f"{name}.weight", [channels, channels, 3, 3],
                     1 / math.sqrt(9 * channels), 1 / (9 * channels))
        acc = m.zeros(shape)
        c = m.fresh("conv")
        m.line(f"{c} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, "
               f"strides = dense<1> : vector<2xi64>}} ins({pd}, {w} : {tensor(padded)}, "
               f"{tensor([channels, channels, 3, 3])}) outs({acc} : {tensor(shape)}) -> {tensor(shape)}")
        # batch norm in inference: (x - mean) / sqrt(var + eps) * gamma + beta
        mean = m.weight(f"{name}.bn.running_mean", [channels], 0.1, 0.0)
        var = m.weight(f"{name}.bn.running_var", [channels], 0.1, 1.0, offset=1.0)
        gamma = m.weight(f"{name}.bn.weight", [channels], 0.1, 1.0, offset=1.0)
        beta = m.weight(f"{name}.bn.bias", [channels], 0.1, 0.0)
        eps = m.const(1e-5)
        ch = "d1"
        idm = "d0, d1, d2, d3"
        return m.generic([(c, shape), (mean, [channels]), (var, [channels]), (gamma, [channels]),
                          (beta, [channels])], shape, [idm, ch, ch, ch, ch], idm,
                         ["parallel"] * 4,
                         lambda a: ([f"%d = arith.subf {a[0]}, {a[1]} : f32",
                                     f"%ve = arith.addf {a[2]}, {eps} : f32",
                                     "%sd = math.sqrt %ve : f32",
                                     "%n = arith.divf %d, %sd : f32",
                                     f"%sc = arith.mulf %n, {a[3]} : f32",
                                     f"%r = arith.addf %sc, {a[4]} : f32"], "%r"))

    y = conv_bn("%x", "conv1")
    y = m.relu(y, shape)
    y = conv_bn(y, "conv2")
    y = m.add(y, "%x", shape)
    y = m.relu(y, shape)
    m.line(f"return {y} : {tensor(shape)}")
    header = (f"A ResNet basic block (NCHW 1x{channels}x{size}x{size}): conv 3x3 - batch norm -\n"
              "ReLU - conv 3x3 - batch norm, plus the identity, ReLU.")
    return m.text(f"%x: {tensor(shape)}", tensor(shape), header)


def mlp(batch, sizes, dense):
    """An MLP: linear + ReLU layers, a linear head."""
    m = Module("mlp", dense, seed=3)
    x = "%x"
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        x = m.linear(x, batch, a, b, f"fc{i}")
        if i + 2 < len(sizes):
            x = m.relu(x, [batch, b])
    m.line(f"return {x} : {tensor([batch, sizes[-1]])}")
    header = f"An MLP: batch {batch}, layers {' -> '.join(map(str, sizes))}, ReLU between."
    return m.text(f"%x: {tensor([batch, sizes[0]])}", tensor([batch, sizes[-1]]), header)


# ---------------------------------------------------------------------------
# The model zoo: whole networks in the same form (torch-mlir's), each at
# batch 1 and at a larger batch.
# ---------------------------------------------------------------------------

def ident(rank):
    return ", ".join(f"d{i}" for i in range(rank))


class Zoo(Module):
    """Module with the layers the zoo's networks are made of, each written
    as torch-mlir lowers the PyTorch module of the same name."""

    def pad(self, x, shape, pad, value=0.0):
        if not pad:
            return x, shape
        v = self.const(value) if value != float("-inf") else self.ninf()
        out = shape[:2] + [shape[2] + 2 * pad, shape[3] + 2 * pad]
        pd = self.fresh("pad")
        self.line(f"{pd} = tensor.pad {x} low[0, 0, {pad}, {pad}] high[0, 0, {pad}, {pad}] {{")
        self.line("^bb0(%i: index, %j: index, %k: index, %l: index):")
        self.line(f"  tensor.yield {v} : f32")
        self.line(f"}} : {tensor(shape)} to {tensor(out)}")
        return pd, out

    def ninf(self):
        v = self.fresh("ninf")
        self.line(f"{v} = arith.constant 0xFF800000 : f32")
        return v

    def conv(self, x, shape, cout, k, stride, pad, name, groups=1, bias=False):
        """nn.Conv2d (NCHW, weight (out, in/groups, k, k)): a zero-padded
        input, conv_2d_nchw_fchw, or depthwise_conv_2d_nchw_chw of the
        collapsed weight when groups == channels."""
        n, cin, h, w = shape
        xp, pshape = self.pad(x, shape, pad)
        oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
        out = [n, cout, oh, ow]
        fan_in = cin // groups * k * k
        wshape = [cout, cin // groups, k, k]
        wt = self.weight(f"{name}.weight", wshape, 1 / math.sqrt(fan_in), 1 / fan_in)
        acc = self.zeros(out)
        c = self.fresh("conv")
        attrs = (f"{{dilations = dense<1> : vector<2xi64>, "
                 f"strides = dense<{stride}> : vector<2xi64>}}")
        if groups == 1:
            self.line(f"{c} = linalg.conv_2d_nchw_fchw {attrs} ins({xp}, {wt} : "
                      f"{tensor(pshape)}, {tensor(wshape)}) outs({acc} : {tensor(out)}) "
                      f"-> {tensor(out)}")
        else:
            assert groups == cin == cout, "grouped convolutions: depthwise only"
            cw = self.fresh("dw")
            self.line(f"{cw} = tensor.collapse_shape {wt} [[0, 1], [2], [3]] : "
                      f"{tensor(wshape)} into {tensor([cout, k, k])}")
            self.line(f"{c} = linalg.depthwise_conv_2d_nchw_chw {attrs} ins({xp}, {cw} : "
                      f"{tensor(pshape)}, {tensor([cout, k, k])}) outs({acc} : {tensor(out)}) "
                      f"-> {tensor(out)}")
        if bias:
            b = self.weight(f"{name}.bias", [cout], 0.1, 0.01)
            c = self.generic([(c, out), (b, [cout])], out, [ident(4), "d1"], ident(4),
                             ["parallel"] * 4,
                             lambda a: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"))
        return c, out

    def batch_norm(self, x, shape, name):
        """nn.BatchNorm2d in eval mode: (x - mean) / sqrt(var + eps) * gamma + beta."""
        ch = shape[1]
        mean = self.weight(f"{name}.running_mean", [ch], 0.1, 0.0)
        var = self.weight(f"{name}.running_var", [ch], 0.1, 1.0, offset=1.0)
        gamma = self.weight(f"{name}.weight", [ch], 0.1, 1.0, offset=1.0)
        beta = self.weight(f"{name}.bias", [ch], 0.1, 0.0)
        eps = self.const(1e-5)
        return self.generic([(x, shape), (mean, [ch]), (var, [ch]), (gamma, [ch]), (beta, [ch])],
                            shape, [ident(4), "d1", "d1", "d1", "d1"], ident(4),
                            ["parallel"] * 4,
                            lambda a: ([f"%d = arith.subf {a[0]}, {a[1]} : f32",
                                        f"%ve = arith.addf {a[2]}, {eps} : f32",
                                        "%sd = math.sqrt %ve : f32",
                                        "%n = arith.divf %d, %sd : f32",
                                        f"%sc = arith.mulf %n, {a[3]} : f32",
                                        f"%r = arith.addf %sc, {a[4]} : f32"], "%r"))

    def act(self, x, shape, kind):
        """ReLU, Hardswish x * relu6(x + 3) / 6, Hardsigmoid relu6(x + 3) / 6."""
        if kind == "relu":
            return self.relu(x, shape)
        zero, three, six = self.const(0.0), self.const(3.0), self.const(6.0)
        lines = lambda a: [f"%p = arith.addf {a}, {three} : f32",
                           f"%lo = arith.maximumf %p, {zero} : f32",
                           f"%hi = arith.minimumf %lo, {six} : f32",
                           f"%h = arith.divf %hi, {six} : f32"] + (
            [f"%r = arith.mulf {a}, %h : f32"] if kind == "hardswish" else [])
        return self.elementwise(x, shape, lines, "%r" if kind == "hardswish" else "%h")

    def maxpool(self, x, shape, k, stride, pad):
        """nn.MaxPool2d: the input padded with -inf, pooling_nchw_max."""
        n, c, h, w = shape
        xp, pshape = self.pad(x, shape, pad, float("-inf"))
        out = [n, c, (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1]
        init = self.ninf()
        e = self.empty(out)
        f = self.fresh("fill")
        self.line(f"{f} = linalg.fill ins({init} : f32) outs({e} : {tensor(out)}) -> {tensor(out)}")
        win = self.fresh("win")
        self.line(f"{win} = tensor.empty() : {tensor([k, k])}")
        v = self.fresh("pool")
        self.line(f"{v} = linalg.pooling_nchw_max {{dilations = dense<1> : vector<2xi64>, "
                  f"strides = dense<{stride}> : vector<2xi64>}} ins({xp}, {win} : "
                  f"{tensor(pshape)}, {tensor([k, k])}) outs({f} : {tensor(out)}) -> {tensor(out)}")
        return v, out

    def adaptive_avgpool(self, x, shape, size):
        """nn.AdaptiveAvgPool2d as torch-mlir writes it: a generic over the
        output and the largest window whose body reads the input with
        tensor.extract (the input is captured from above, not an operand),
        window [floor(i*H/O), ceil((i+1)*H/O)), then a divide by each
        window's size."""
        n, c, h, w = shape
        out = [n, c, size, size]

        def bounds(i, full):
            return (i * full) // size, -((-(i + 1) * full) // size)
        kh = max(b - a for a, b in (bounds(i, h) for i in range(size)))
        kw = max(b - a for a, b in (bounds(i, w) for i in range(size)))
        win = self.empty([kh, kw])
        acc = self.zeros(out)
        zero = self.const(0.0)
        consts = {}
        for val in sorted({h, w, size, h - 1, w - 1, size - 1}):
            v = self.fresh("i")
            self.line(f"{v} = arith.constant {val} : index")
            consts[val] = v

        def window(o, full):
            # start = o * full / size; end = ceil((o + 1) * full / size)
            return [f"%st{o} = arith.muli %o{o}, {consts[full]} : index",
                    f"%s{o} = arith.divui %st{o}, {consts[size]} : index",
                    f"%i{o} = arith.addi %s{o}, %k{o} : index",
                    f"%ob{o} = arith.addi %o{o}, %one : index",
                    f"%en{o} = arith.muli %ob{o}, {consts[full]} : index",
                    f"%enr{o} = arith.addi %en{o}, {consts[size - 1]} : index",
                    f"%e{o} = arith.divui %enr{o}, {consts[size]} : index",
                    f"%in{o}ok = arith.cmpi ult, %i{o}, %e{o} : index",
                    f"%ic{o} = arith.minui %i{o}, {consts[full - 1]} : index"]

        def body(a):
            lines = ["%one = arith.constant 1 : index",
                     "%n = linalg.index 0 : index", "%c = linalg.index 1 : index",
                     "%o2 = linalg.index 2 : index", "%o3 = linalg.index 3 : index",
                     "%k2 = linalg.index 4 : index", "%k3 = linalg.index 5 : index"]
            lines += window(2, h) + window(3, w)
            lines += [f"%v = tensor.extract {x}[%n, %c, %ic2, %ic3] : {tensor(shape)}",
                      "%ok = arith.andi %in2ok, %in3ok : i1",
                      f"%z = arith.select %ok, %v, {zero} : f32",
                      f"%r = arith.addf {a[1]}, %z : f32"]
            return lines, "%r"
        s = self.generic([(win, [kh, kw])], out, ["d4, d5"], ident(4),
                         ["parallel"] * 4 + ["reduction"] * 2, body, init=acc)

        def divide(a):
            lines = ["%one = arith.constant 1 : index",
                     "%o2 = linalg.index 2 : index", "%o3 = linalg.index 3 : index"]
            for o, full in ((2, h), (3, w)):
                lines += [f"%st{o} = arith.muli %o{o}, {consts[full]} : index",
                          f"%s{o} = arith.divui %st{o}, {consts[size]} : index",
                          f"%ob{o} = arith.addi %o{o}, %one : index",
                          f"%en{o} = arith.muli %ob{o}, {consts[full]} : index",
                          f"%enr{o} = arith.addi %en{o}, {consts[size - 1]} : index",
                          f"%e{o} = arith.divui %enr{o}, {consts[size]} : index",
                          f"%l{o} = arith.subi %e{o}, %s{o} : index"]
            lines += ["%cnt = arith.muli %l2, %l3 : index",
                      "%ci = arith.index_cast %cnt : index to i64",
                      "%cf = arith.sitofp %ci : i64 to f32",
                      f"%r = arith.divf {a[0]}, %cf : f32"]
            return lines, "%r"
        return self.generic([(s, out)], out, [ident(4)], ident(4), ["parallel"] * 4, divide), out

    def flatten(self, x, shape):
        """torch.flatten(x, 1)."""
        v = self.fresh("flat")
        out = [shape[0], math.prod(shape[1:])]
        groups = ", ".join(str(i) for i in range(1, len(shape)))
        self.line(f"{v} = tensor.collapse_shape {x} [[0], [{groups}]] : {tensor(shape)} "
                  f"into {tensor(out)}")
        return v, out

    def mul_channels(self, x, shape, s):
        """x * s, s of shape (N, C, 1, 1) broadcast over the image."""
        return self.generic([(x, shape), (s, shape[:2] + [1, 1])], shape,
                            [ident(4), "d0, d1, 0, 0"], ident(4), ["parallel"] * 4,
                            lambda a: ([f"%r = arith.mulf {a[0]}, {a[1]} : f32"], "%r"))

    def reshape(self, x, op, shape, out, groups):
        v = self.fresh("rs")
        if op == "expand":
            self.line(f"{v} = tensor.expand_shape {x} {groups} output_shape "
                      f"[{', '.join(map(str, out))}] : {tensor(shape)} into {tensor(out)}")
        else:
            self.line(f"{v} = tensor.collapse_shape {x} {groups} : {tensor(shape)} "
                      f"into {tensor(out)}")
        return v

    def transpose(self, x, shape, perm):
        out = [shape[p] for p in perm]
        e = self.empty(out)
        v = self.fresh("tr")
        self.line(f"{v} = linalg.transpose ins({x} : {tensor(shape)}) outs({e} : {tensor(out)}) "
                  f"permutation = [{', '.join(map(str, perm))}]")
        return v

    def bmm(self, a, b, bs, m, k, n):
        acc = self.zeros([bs, m, n])
        v = self.fresh("bmm")
        self.line(f"{v} = linalg.batch_matmul ins({a}, {b} : {tensor([bs, m, k])}, "
                  f"{tensor([bs, k, n])}) outs({acc} : {tensor([bs, m, n])}) "
                  f"-> {tensor([bs, m, n])}")
        return v

    def softmax(self, x, shape):
        """torch.softmax over the last dimension: max, exp(x - max), sum, divide."""
        rows = shape[:-1]
        three = ["parallel"] * 3
        red = ["parallel", "parallel", "reduction"]
        ninf = self.ninf()
        e = self.empty(rows)
        mi = self.fresh("fill")
        self.line(f"{mi} = linalg.fill ins({ninf} : f32) outs({e} : {tensor(rows)}) -> {tensor(rows)}")
        mx = self.generic([(x, shape)], rows, ["d0, d1, d2"], "d0, d1", red,
                          lambda a: ([f"%r = arith.maximumf {a[0]}, {a[1]} : f32"], "%r"), init=mi)
        ex = self.generic([(x, shape), (mx, rows)], shape, ["d0, d1, d2", "d0, d1"], "d0, d1, d2",
                          three, lambda a: ([f"%d = arith.subf {a[0]}, {a[1]} : f32",
                                             "%r = math.exp %d : f32"], "%r"))
        si = self.zeros(rows)
        sm = self.generic([(ex, shape)], rows, ["d0, d1, d2"], "d0, d1", red,
                          lambda a: ([f"%r = arith.addf {a[0]}, {a[1]} : f32"], "%r"), init=si)
        return self.generic([(ex, shape), (sm, rows)], shape, ["d0, d1, d2", "d0, d1"],
                            "d0, d1, d2", three,
                            lambda a: ([f"%r = arith.divf {a[0]}, {a[1]} : f32"], "%r"))

    def scale(self, x, shape, factor):
        c = self.const(factor)
        return self.elementwise(x, shape, lambda a: [f"%r = arith.mulf {a}, {c} : f32"])

    def rms_norm(self, x, rows, cols, name, eps=1e-6):
        """LLaMA's RMSNorm: x * rsqrt(mean(x^2) + eps) * weight."""
        wt = self.weight(f"{name}.weight", [cols], 0.1, 1.0, offset=1.0)
        n, e = self.const(float(cols)), self.const(eps)
        ss = self.generic([(x, [rows, cols])], [rows], ["d0, d1"], "d0", ["parallel", "reduction"],
                          lambda a: ([f"%q = arith.mulf {a[0]}, {a[0]} : f32",
                                      f"%s = arith.addf %q, {a[1]} : f32"], "%s"),
                          init=self.zeros([rows]))
        return self.generic([(x, [rows, cols]), (ss, [rows]), (wt, [cols])], [rows, cols],
                            ["d0, d1", "d0", "d1"], "d0, d1", ["parallel", "parallel"],
                            lambda a: ([f"%m = arith.divf {a[1]}, {n} : f32",
                                        f"%me = arith.addf %m, {e} : f32",
                                        "%rs = math.rsqrt %me : f32",
                                        f"%nx = arith.mulf {a[0]}, %rs : f32",
                                        f"%r = arith.mulf %nx, {a[2]} : f32"], "%r"))

    def heads(self, t, batch, seq, heads, hd, perm):
        """(B*S, heads*hd) -> (B, S, heads, hd) -> permuted -> (B*heads, ., .)."""
        s4 = [batch, seq, heads, hd]
        ex = self.reshape(t, "expand", [batch * seq, heads * hd], s4, "[[0, 1], [2, 3]]")
        tr = self.transpose(ex, s4, perm)
        p4 = [s4[p] for p in perm]
        return self.reshape(tr, "collapse", p4, [p4[0] * p4[1]] + p4[2:], "[[0, 1], [2], [3]]"), tr, p4

    def attention_output(self, ctx, batch, seq, heads, hd):
        """(B*heads, S, hd) -> (B, heads, S, hd) -> (B, S, heads, hd) -> (B*S, hidden)."""
        s4 = [batch, heads, seq, hd]
        ex = self.reshape(ctx, "expand", [batch * heads, seq, hd], s4, "[[0, 1], [2], [3]]")
        tr = self.transpose(ex, s4, [0, 2, 1, 3])
        return self.reshape(tr, "collapse", [batch, seq, heads, hd], [batch * seq, heads * hd],
                            "[[0, 1], [2, 3]]")


def gelu(m, h, shape):
    half, one, rsqrt2 = m.const(0.5), m.const(1.0), m.const(1 / math.sqrt(2))
    return m.elementwise(h, shape, lambda a: [
        f"%s = arith.mulf {a}, {rsqrt2} : f32", "%erf = math.erf %s : f32",
        f"%p = arith.addf %erf, {one} : f32", f"%hx = arith.mulf {a}, {half} : f32",
        "%r = arith.mulf %hx, %p : f32"])


VGG16 = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]


def vgg(batch, size, cfg, pool, hidden, classes, dense, title):
    """torchvision's VGG: conv3x3 + ReLU blocks with max pools, adaptive
    average pool, flatten, classifier linear-ReLU-linear-ReLU-linear
    (dropout is the identity in eval mode)."""
    m = Zoo("vgg", dense, seed=13)
    shape = [batch, 3, size, size]
    x, i = "%x", 0
    for v in cfg:
        if v == "M":
            x, shape = m.maxpool(x, shape, 2, 2, 0)
        else:
            x, shape = m.conv(x, shape, v, 3, 1, 1, f"features.{i}", bias=True)
            x = m.relu(x, shape)
            i += 1
    x, shape = m.adaptive_avgpool(x, shape, pool)
    x, shape = m.flatten(x, shape)
    x = m.linear(x, batch, shape[1], hidden, "classifier.0")
    x = m.relu(x, [batch, hidden])
    x = m.linear(x, batch, hidden, hidden, "classifier.3")
    x = m.relu(x, [batch, hidden])
    x = m.linear(x, batch, hidden, classes, "classifier.6")
    m.line(f"return {x} : {tensor([batch, classes])}")
    header = (f"{title} (NCHW {batch}x3x{size}x{size}): conv 3x3 + ReLU blocks, max pools,\n"
              f"adaptive average pool to {pool}x{pool}, classifier {shape[1]} -> {hidden} -> "
              f"{hidden} -> {classes}.")
    return m.text(f"%x: {tensor([batch, 3, size, size])}", tensor([batch, classes]), header)


def resnet(batch, size, widths, blocks, classes, dense, title):
    """torchvision's ResNet with basic blocks: conv 7x7 stride 2, BN, ReLU,
    max pool 3x3 stride 2, stages of basic blocks (the first of each later
    stage with stride 2 and a 1x1 downsample conv + BN), adaptive average
    pool, fc."""
    m = Zoo("resnet", dense, seed=17)
    shape = [batch, 3, size, size]
    x, shape = m.conv("%x", shape, widths[0], 7, 2, 3, "conv1")
    x = m.relu(m.batch_norm(x, shape, "bn1"), shape)
    x, shape = m.maxpool(x, shape, 3, 2, 1)
    for s, width in enumerate(widths):
        for b in range(blocks):
            name = f"layer{s + 1}.{b}"
            stride = 2 if s > 0 and b == 0 else 1
            y, yshape = m.conv(x, shape, width, 3, stride, 1, f"{name}.conv1")
            y = m.relu(m.batch_norm(y, yshape, f"{name}.bn1"), yshape)
            y, yshape = m.conv(y, yshape, width, 3, 1, 1, f"{name}.conv2")
            y = m.batch_norm(y, yshape, f"{name}.bn2")
            if stride != 1 or shape[1] != width:
                idn, _ = m.conv(x, shape, width, 1, stride, 0, f"{name}.downsample.0")
                idn = m.batch_norm(idn, yshape, f"{name}.downsample.1")
            else:
                idn = x
            x, shape = m.relu(m.add(y, idn, yshape), yshape), yshape
    x, shape = m.adaptive_avgpool(x, shape, 1)
    x, shape = m.flatten(x, shape)
    x = m.linear(x, batch, shape[1], classes, "fc")
    m.line(f"return {x} : {tensor([batch, classes])}")
    header = (f"{title} (NCHW {batch}x3x{size}x{size}): conv 7x7 stride 2, max pool, "
              f"{len(widths)} stages x {blocks}\nbasic blocks ({', '.join(map(str, widths))} "
              f"channels), batch norm, adaptive average pool, fc {widths[-1]} -> {classes}.")
    return m.text(f"%x: {tensor([batch, 3, size, size])}", tensor([batch, classes]), header)


def make_divisible(v, d=8):
    new = max(d, int(v + d / 2) // d * d)
    return new + d if new < 0.9 * v else new


# torchvision's mobilenet_v3_small: kernel, expanded, out, squeeze-excite,
# activation, stride
MBV3_SMALL = [(3, 16, 16, True, "relu", 2), (3, 72, 24, False, "relu", 2),
              (3, 88, 24, False, "relu", 1), (5, 96, 40, True, "hardswish", 2),
              (5, 240, 40, True, "hardswish", 1), (5, 240, 40, True, "hardswish", 1),
              (5, 120, 48, True, "hardswish", 1), (5, 144, 48, True, "hardswish", 1),
              (5, 288, 96, True, "hardswish", 2), (5, 576, 96, True, "hardswish", 1),
              (5, 576, 96, True, "hardswish", 1)]


def mobilenet_v3(batch, size, cfg, stem, last, hidden, classes, dense, title):
    """torchvision's MobileNetV3: a 3x3 stride-2 stem, inverted residual
    blocks (1x1 expand, depthwise kxk, squeeze-excite with hardsigmoid, 1x1
    project, residual where shapes match), a 1x1 conv, adaptive average
    pool, classifier linear-hardswish-linear."""
    m = Zoo("mobilenet", dense, seed=19)
    shape = [batch, 3, size, size]

    def conv_bn_act(x, shape, cout, k, stride, name, act, groups=1):
        y, s = m.conv(x, shape, cout, k, stride, (k - 1) // 2, f"{name}.0", groups=groups)
        y = m.batch_norm(y, s, f"{name}.1")
        return (m.act(y, s, act) if act else y), s

    x, shape = conv_bn_act("%x", shape, stem, 3, 2, "features.0", "hardswish")
    for i, (k, exp, out, se, act, stride) in enumerate(cfg):
        name = f"features.{i + 1}.block"
        y, yshape, j = x, shape, 0
        if exp != shape[1]:
            y, yshape = conv_bn_act(y, yshape, exp, 1, 1, f"{name}.{j}", act)
            j += 1
        y, yshape = conv_bn_act(y, yshape, exp, k, stride, f"{name}.{j}", act, groups=exp)
        j += 1
        if se:
            sq = make_divisible(exp // 4)
            p, pshape = m.adaptive_avgpool(y, yshape, 1)
            s, sshape = m.conv(p, pshape, sq, 1, 1, 0, f"{name}.{j}.fc1", bias=True)
            s = m.relu(s, sshape)
            s, sshape = m.conv(s, sshape, exp, 1, 1, 0, f"{name}.{j}.fc2", bias=True)
            s = m.act(s, sshape, "hardsigmoid")
            y = m.mul_channels(y, yshape, s)
            j += 1
        y, yshape = conv_bn_act(y, yshape, out, 1, 1, f"{name}.{j}", None)
        if stride == 1 and shape[1] == out:
            y = m.add(y, x, yshape)
        x, shape = y, yshape
    x, shape = conv_bn_act(x, shape, last, 1, 1, f"features.{len(cfg) + 1}", "hardswish")
    x, shape = m.adaptive_avgpool(x, shape, 1)
    x, shape = m.flatten(x, shape)
    x = m.linear(x, batch, shape[1], hidden, "classifier.0")
    x = m.act(x, [batch, hidden], "hardswish")
    x = m.linear(x, batch, hidden, classes, "classifier.3")
    m.line(f"return {x} : {tensor([batch, classes])}")
    header = (f"{title} (NCHW {batch}x3x{size}x{size}): {len(cfg)} inverted residual blocks,\n"
              f"depthwise convs, squeeze-excite, hardswish, classifier {last} -> {hidden} -> {classes}.")
    return m.text(f"%x: {tensor([batch, 3, size, size])}", tensor([batch, classes]), header)


def bert(batch, seq, hidden, heads, ffn, layers, vocab, positions, dense, title):
    """A BERT encoder stack: word + position + token-type embeddings
    (gathers: linalg.generic with tensor.extract of the table), layer norm,
    then `layers` post-norm encoder layers (self-attention, erf-GELU FFN).
    The token ids are clamped into the vocabulary first (torch.clamp) so
    that any integer input is a valid index."""
    m = Zoo("bert", dense, seed=23)
    hd, rows = hidden // heads, batch * seq
    word = m.weight("embeddings.word_embeddings.weight", [vocab, hidden], 0.1, 0.02)
    pos = m.weight("embeddings.position_embeddings.weight", [positions, hidden], 0.1, 0.01)
    typ = m.weight("embeddings.token_type_embeddings.weight", [2, hidden], 0.1, 0.0)
    lo, hi = m.fresh("i"), m.fresh("i")
    m.line(f"{lo} = arith.constant 0 : i64")
    m.line(f"{hi} = arith.constant {vocab - 1} : i64")
    ids_t = f"tensor<{batch}x{seq}xi64>"
    e = m.fresh("e")
    m.line(f"{e} = tensor.empty() : {ids_t}")
    ids = m.fresh("ids")
    m.line(f"{ids} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
           f"affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]}}")
    m.line(f"    ins(%ids : {ids_t}) outs({e} : {ids_t}) {{")
    m.line("^bb0(%in: i64, %out: i64):")
    m.line(f"  %a = arith.maxsi %in, {lo} : i64")
    m.line(f"  %b = arith.minsi %a, {hi} : i64")
    m.line("  linalg.yield %b : i64")
    m.line(f"}} -> {ids_t}")
    shape3 = [batch, seq, hidden]
    c0 = m.fresh("i")
    m.line(f"{c0} = arith.constant 0 : index")

    def gather(table, tshape, row, with_ids):
        out = m.empty(shape3)
        v = m.fresh("emb")
        maps = (["affine_map<(d0, d1, d2) -> (d0, d1)>"] if with_ids else []) + \
            ["affine_map<(d0, d1, d2) -> (d0, d1, d2)>"]
        m.line(f"{v} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
               f"iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}}")
        ins = f"ins({ids} : {ids_t}) " if with_ids else ""
        m.line(f"    {ins}outs({out} : {tensor(shape3)}) {{")
        m.line(f"^bb0({'%in: i64, ' if with_ids else ''}%out: f32):")
        for l in row[0]:
            m.line("  " + l)
        m.line("  %d = linalg.index 2 : index")
        m.line(f"  %v = tensor.extract {table}[{row[1]}, %d] : {tensor(tshape)}")
        m.line("  linalg.yield %v : f32")
        m.line(f"}} -> {tensor(shape3)}")
        return v
    # torch-mlir's aten.embedding: one gather per table; the positions are
    # arange(seq), the token types all 0 (BERT's defaults).
    w = gather(word, [vocab, hidden], (["%r = arith.index_cast %in : i64 to index"], "%r"), True)
    p = gather(pos, [positions, hidden], (["%r = linalg.index 1 : index"], "%r"), False)
    t = gather(typ, [2, hidden], ([], c0), False)
    three = ["parallel"] * 3
    s = m.add(m.add(w, p, shape3), t, shape3)
    x = m.reshape(s, "collapse", shape3, [rows, hidden], "[[0, 1], [2]]")
    x = m.layer_norm(x, rows, hidden, "embeddings.LayerNorm", eps=1e-12)
    for layer in range(layers):
        n = f"encoder.layer.{layer}"
        q = m.linear(x, rows, hidden, hidden, f"{n}.attention.self.query")
        k = m.linear(x, rows, hidden, hidden, f"{n}.attention.self.key")
        v = m.linear(x, rows, hidden, hidden, f"{n}.attention.self.value")
        qh, _, _ = m.heads(q, batch, seq, heads, hd, [0, 2, 1, 3])
        kh, _, _ = m.heads(k, batch, seq, heads, hd, [0, 2, 3, 1])
        vh, _, _ = m.heads(v, batch, seq, heads, hd, [0, 2, 1, 3])
        bs = batch * heads
        sc = m.bmm(qh, kh, bs, seq, hd, seq)
        sc = m.scale(sc, [bs, seq, seq], 1 / math.sqrt(hd))
        pr = m.softmax(sc, [bs, seq, seq])
        ctx = m.bmm(pr, vh, bs, seq, seq, hd)
        cc = m.attention_output(ctx, batch, seq, heads, hd)
        o = m.linear(cc, rows, hidden, hidden, f"{n}.attention.output.dense")
        x = m.layer_norm(m.add(o, x, [rows, hidden]), rows, hidden,
                         f"{n}.attention.output.LayerNorm", eps=1e-12)
        h = m.linear(x, rows, hidden, ffn, f"{n}.intermediate.dense")
        g = gelu(m, h, [rows, ffn])
        d = m.linear(g, rows, ffn, hidden, f"{n}.output.dense")
        x = m.layer_norm(m.add(d, x, [rows, hidden]), rows, hidden, f"{n}.output.LayerNorm",
                         eps=1e-12)
    out = m.reshape(x, "expand", [rows, hidden], shape3, "[[0, 1], [2]]")
    m.line(f"return {out} : {tensor(shape3)}")
    header = (f"{title} (batch {batch}, sequence {seq}): embeddings (gathers of token ids), "
              f"{layers} encoder\nlayer(s), hidden {hidden}, {heads} heads x {hd}, "
              f"FFN {ffn}, erf GELU, post-norm layer norms.")
    return m.text(f"%ids: {ids_t}", tensor(shape3), header)


def as_bf16(text):
    """A model as a frontend writes it after module.to(torch.bfloat16): every
    f32 tensor, scalar and constant in bf16 (weights, activations, and the
    reductions of the norms and the softmax), -inf as bf16's."""
    text = text.replace("0xFF800000 : f32", "0xFF80 : bf16")
    if "0x" in text.replace("0xFF80 : bf16", ""):
        raise ValueError("a hex constant as_bf16 does not know")
    return text.replace("f32", "bf16")


def llama_block(batch, seq, hidden, heads, ffn, dense, title):
    """A LLaMA decoder block: RMSNorm, q/k/v projections (no bias), rotary
    embedding (x * cos + rotate_half(x) * sin), causal attention (a -inf
    mask above the diagonal, softmax), output projection, residual,
    RMSNorm, SiLU-gated MLP down(silu(gate(x)) * up(x)), residual."""
    m = Zoo("llama", dense, seed=29)
    hd, rows = hidden // heads, batch * seq
    shape3 = [batch, seq, hidden]
    x0 = m.reshape("%x", "collapse", shape3, [rows, hidden], "[[0, 1], [2]]")
    cos = m.weight("rotary.cos", [seq, hd], 0.5, 1.0, offset=0.5)
    sin = m.weight("rotary.sin", [seq, hd], 0.5, 0.0)
    n1 = m.rms_norm(x0, rows, hidden, "input_layernorm")
    q = m.linear(n1, rows, hidden, hidden, "self_attn.q_proj", bias=False)
    k = m.linear(n1, rows, hidden, hidden, "self_attn.k_proj", bias=False)
    v = m.linear(n1, rows, hidden, hidden, "self_attn.v_proj", bias=False)
    s4 = [batch, heads, seq, hd]
    half = hd // 2

    def rope(t):
        ex = m.reshape(t, "expand", [rows, hidden], [batch, seq, heads, hd], "[[0, 1], [2, 3]]")
        tr = m.transpose(ex, [batch, seq, heads, hd], [0, 2, 1, 3])
        hs = [batch, heads, seq, half]
        x1, x2 = m.fresh("x1_"), m.fresh("x2_")
        for name, off in ((x1, 0), (x2, half)):
            m.line(f"{name} = tensor.extract_slice {tr}[0, 0, 0, {off}] [{batch}, {heads}, {seq}, "
                   f"{half}] [1, 1, 1, 1] : {tensor(s4)} to {tensor(hs)}")
        neg = m.elementwise(x2, hs, lambda a: [f"%r = arith.negf {a} : f32"])
        e = m.empty(s4)
        c1, c2 = m.fresh("cat"), m.fresh("cat")
        m.line(f"{c1} = tensor.insert_slice {neg} into {e}[0, 0, 0, 0] [{batch}, {heads}, {seq}, "
               f"{half}] [1, 1, 1, 1] : {tensor(hs)} into {tensor(s4)}")
        m.line(f"{c2} = tensor.insert_slice {x1} into {c1}[0, 0, 0, {half}] [{batch}, {heads}, "
               f"{seq}, {half}] [1, 1, 1, 1] : {tensor(hs)} into {tensor(s4)}")
        return m.generic([(tr, s4), (cos, [seq, hd]), (c2, s4), (sin, [seq, hd])], s4,
                         [ident(4), "d2, d3", ident(4), "d2, d3"], ident(4), ["parallel"] * 4,
                         lambda a: ([f"%a = arith.mulf {a[0]}, {a[1]} : f32",
                                     f"%b = arith.mulf {a[2]}, {a[3]} : f32",
                                     "%r = arith.addf %a, %b : f32"], "%r"))
    bs = batch * heads
    qh = m.reshape(rope(q), "collapse", s4, [bs, seq, hd], "[[0, 1], [2], [3]]")
    kr = m.reshape(rope(k), "collapse", s4, [bs, seq, hd], "[[0, 1], [2], [3]]")
    kh = m.transpose(kr, [bs, seq, hd], [0, 2, 1])
    vh, _, _ = m.heads(v, batch, seq, heads, hd, [0, 2, 1, 3])
    sc = m.bmm(qh, kh, bs, seq, hd, seq)
    sc = m.scale(sc, [bs, seq, seq], 1 / math.sqrt(hd))
    ninf, zero = m.ninf(), m.const(0.0)
    masked = m.generic([(sc, [bs, seq, seq])], [bs, seq, seq], [ident(3)], ident(3),
                       ["parallel"] * 3,
                       lambda a: (["%i = linalg.index 1 : index", "%j = linalg.index 2 : index",
                                   "%up = arith.cmpi ugt, %j, %i : index",
                                   f"%m = arith.select %up, {ninf}, {zero} : f32",
                                   f"%r = arith.addf {a[0]}, %m : f32"], "%r"))
    pr = m.softmax(masked, [bs, seq, seq])
    ctx = m.bmm(pr, vh, bs, seq, seq, hd)
    cc = m.attention_output(ctx, batch, seq, heads, hd)
    o = m.linear(cc, rows, hidden, hidden, "self_attn.o_proj", bias=False)
    h = m.add(x0, o, [rows, hidden])
    n2 = m.rms_norm(h, rows, hidden, "post_attention_layernorm")
    gt = m.linear(n2, rows, hidden, ffn, "mlp.gate_proj", bias=False)
    up = m.linear(n2, rows, hidden, ffn, "mlp.up_proj", bias=False)
    one = m.const(1.0)
    act = m.generic([(gt, [rows, ffn]), (up, [rows, ffn])], [rows, ffn], ["d0, d1", "d0, d1"],
                    "d0, d1", ["parallel", "parallel"],
                    lambda a: ([f"%n = arith.negf {a[0]} : f32", "%e = math.exp %n : f32",
                                f"%d = arith.addf %e, {one} : f32",
                                f"%s = arith.divf {a[0]}, %d : f32",
                                f"%r = arith.mulf %s, {a[1]} : f32"], "%r"))
    dn = m.linear(act, rows, ffn, hidden, "mlp.down_proj", bias=False)
    out = m.reshape(m.add(h, dn, [rows, hidden]), "expand", [rows, hidden], shape3,
                    "[[0, 1], [2]]")
    m.line(f"return {out} : {tensor(shape3)}")
    header = (f"{title} (batch {batch}, sequence {seq}): RMSNorm, rotary embedding, causal\n"
              f"attention ({heads} heads x {hd}, -inf mask, softmax), SiLU-gated MLP "
              f"{hidden} -> {ffn} -> {hidden}.")
    return m.text(f"%x: {tensor(shape3)}", tensor(shape3), header)


# The zoo at full size (batch 1 and a larger batch) and scaled down.
def zoo_full(layers=12):
    def vgg16(b):
        return lambda: vgg(b, 224, VGG16, 7, 4096, 1000, False, "VGG-16")

    def resnet18(b):
        return lambda: resnet(b, 224, [64, 128, 256, 512], 2, 1000, False, "ResNet-18")

    def mbv3(b):
        return lambda: mobilenet_v3(b, 224, MBV3_SMALL, 16, 576, 1024, 1000, False,
                                    "MobileNetV3-small")

    def bert_base(b):
        return lambda: bert(b, 128, 768, 12, 3072, layers, 30522, 512, False, "BERT-base")

    def llama(b, s):
        return lambda: llama_block(b, s, 2048, 16, 5632, False, "A LLaMA-style decoder block")

    def llama_bf16(b, s):
        return lambda: as_bf16(llama_block(b, s, 2048, 16, 5632, False,
                                           "A LLaMA-style decoder block in bf16"))
    return {
        "vgg16_b1.mlir": vgg16(1), "vgg16_b8.mlir": vgg16(8),
        "resnet18_b1.mlir": resnet18(1), "resnet18_b8.mlir": resnet18(8),
        "mobilenet_v3_small_b1.mlir": mbv3(1), "mobilenet_v3_small_b8.mlir": mbv3(8),
        "bert_base_b1.mlir": bert_base(1), "bert_base_b8.mlir": bert_base(8),
        "llama_block_b1.mlir": llama(1, 512), "llama_block_b8.mlir": llama(8, 256),
        "llama_block_bf16_b1.mlir": llama_bf16(1, 512),
        "llama_block_bf16_b8.mlir": llama_bf16(8, 256),
    }


SMALL_VGG = [4, "M", 8, 8, "M"]
SMALL_MBV3 = [(3, 4, 4, True, "relu", 2), (3, 12, 8, False, "relu", 1),
              (5, 16, 8, True, "hardswish", 1)]


def zoo_small(layers=2):
    return {
        "vgg_small.mlir": lambda: vgg(2, 12, SMALL_VGG, 2, 16, 10, True, "A small VGG-style network"),
        "resnet18_small.mlir": lambda: resnet(1, 16, [4, 8], 1, 10, True, "A small ResNet"),
        "mobilenet_v3_small_small.mlir": lambda: mobilenet_v3(
            1, 16, SMALL_MBV3, 4, 16, 16, 10, True, "A small MobileNetV3"),
        "bert_small.mlir": lambda: bert(2, 8, 16, 2, 32, layers, 50, 16, True,
                                        "A small BERT encoder"),
        "llama_block_small.mlir": lambda: llama_block(2, 8, 16, 2, 32, True,
                                                      "A small LLaMA-style decoder block"),
    }


FULL = {
    "transformer_layer.mlir": lambda: transformer(128, 768, 12, 3072, dense=False),
    "resnet_block.mlir": lambda: resnet_block(64, 56, dense=False),
    "mlp_model.mlir": lambda: mlp(64, [512, 1024, 1024, 10], dense=False),
}

SMALL = {
    "transformer_layer_small.mlir": lambda: transformer(16, 32, 4, 64, dense=True),
    "resnet_block_small.mlir": lambda: resnet_block(4, 6, dense=True),
    "mlp_model_small.mlir": lambda: mlp(8, [16, 32, 32, 10], dense=True),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", metavar="DIR",
                        help="write the scaled-down variants with dense weights to DIR")
    parser.add_argument("--out", metavar="DIR", default=os.path.dirname(os.path.abspath(__file__)),
                        help="where the full-size examples go (default: next to this script)")
    parser.add_argument("--layers", type=int, default=None,
                        help="encoder layers of the BERT models (default: 12 at full size, "
                        "2 scaled down)")
    parser.add_argument("--names", default=None,
                        help="comma-separated file names (without .mlir) to write; default all")
    args = parser.parse_args()
    if args.small:
        models = dict(SMALL, **zoo_small(args.layers or 2))
        where = args.small
    else:
        models = dict(FULL, **zoo_full(args.layers or 12))
        where = args.out
    if args.names:
        wanted = set(args.names.split(","))
        unknown = wanted - {n[:-len(".mlir")] for n in models}
        if unknown:
            parser.error(f"unknown model(s): {', '.join(sorted(unknown))}")
        models = {n: b for n, b in models.items() if n[:-len(".mlir")] in wanted}
    os.makedirs(where, exist_ok=True)
    for name, build in models.items():
        with open(os.path.join(where, name), "w") as f:
            f.write(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
