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
    args = parser.parse_args()
    models, where = (SMALL, args.small) if args.small else (FULL, args.out)
    os.makedirs(where, exist_ok=True)
    for name, build in models.items():
        with open(os.path.join(where, name), "w") as f:
            f.write(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
