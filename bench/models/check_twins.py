#!/usr/bin/env python3
"""Checks that each zoo model and its PyTorch twin compute the same thing.

For each network, generate.py writes a scaled-down variant with dense
pseudo-random weights; the model runs through the plain upstream CPU
lowering (stark-opt --stark-fold-constants, then mlir-opt to LLVM and
mlir-runner) on a fixed input, the twin (bench/models/twins.py, at the same
shapes) runs with the model's weights copied into it, and the largest
absolute difference of the outputs is printed and checked against 1e-4.

Needs torch (Debian's python3-torch, 1.13 on the CPU, is enough), and LLVM's
mlir-opt, mlir-runner and runner libraries (so a
developer machine, not the GPU machine nor CI):

  python3 bench/models/check_twins.py --stark-opt build/bin/stark-opt \\
      [--llvm-bin /usr/lib/llvm-22/bin] [--names vgg,resnet,...]
"""

import argparse
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "examples", "models"))
import generate as g  # noqa: E402

TOLERANCE = 1e-4


def load_twins():
    spec = importlib.util.spec_from_file_location(
        "twins", os.path.join(HERE, "twins.py"))
    t = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(t)
    return t


def run_model(args, work, text, in_shape, in_vals, out_shape, ints):
    """The model's output on the input, through the upstream lowering."""
    et = "i64" if ints else "f32"
    vals = g.nest([str(v) if ints else g.fmt(v) for v in in_vals], in_shape)
    ity = "tensor<" + "x".join(map(str, in_shape)) + f"x{et}>"
    oty = g.tensor(out_shape)
    mty = "memref<" + "x".join(map(str, out_shape)) + "xf32>"
    main = f"""
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {{
  %x = arith.constant dense<{vals}> : {ity}
  %y = call @forward(%x) : ({ity}) -> {oty}
  %m = bufferization.to_buffer %y : {oty} to {mty}
  %u = memref.cast %m : {mty} to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}}
"""
    src, folded, low = (os.path.join(work, f) for f in
                        ("model.mlir", "folded.mlir", "llvm.mlir"))
    with open(src, "w") as f:
        f.write(text + main)
    subprocess.run([args.stark_opt, src, "--stark-fold-constants", "-o",
                    folded], check=True, capture_output=True)
    subprocess.run([os.path.join(args.llvm_bin, "mlir-opt"), folded,
                    "--one-shot-bufferize=bufferize-function-boundaries",
                    "--convert-linalg-to-loops", "--convert-math-to-llvm",
                    "--convert-math-to-libm", "--expand-strided-metadata",
                    "--lower-affine", "--convert-scf-to-cf",
                    "--finalize-memref-to-llvm", "--convert-arith-to-llvm",
                    "--convert-index-to-llvm", "--convert-func-to-llvm",
                    "--convert-cf-to-llvm", "--reconcile-unrealized-casts",
                    "-o", low], check=True)
    lib = os.path.join(args.llvm_bin, "..", "lib")
    p = subprocess.run(
        [os.path.join(args.llvm_bin, "mlir-runner"), low, "-e", "main",
         "-entry-point-result=void",
         f"-shared-libs={lib}/libmlir_runner_utils.so,"
         f"{lib}/libmlir_c_runner_utils.so"],
        check=True, capture_output=True, text=True)
    data = p.stdout[p.stdout.index("data =") + len("data ="):]
    return [float(x) for x in re.findall(
        r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)]


def copy_weights(torch, text, module, rename):
    """The model's dense globals into the twin's parameters and buffers."""
    params = dict(module.named_parameters())
    params.update(dict(module.named_buffers()))
    n = 0
    for m in re.finditer(r"ml_program.global private @([\w.]+)\(dense<(.*?)> "
                         r": tensor<([\dx]+)xf32>\)", text):
        shape = [int(d) for d in m.group(3).split("x")]
        nums = [float(x) for x in re.findall(r"-?\d+\.\d+e[-+]\d+",
                                             m.group(2))]
        with torch.no_grad():
            params[rename(m.group(1))].copy_(
                torch.tensor(nums).reshape(shape))
        n += 1
    return n


def vgg_names(cfg):
    """generate.py numbers the convolutions, torch the layers."""
    convs, i = [], 0
    for v in cfg:
        if v == "M":
            i += 1
        else:
            convs.append(i)
            i += 2

    def rename(s):
        if s.startswith("features."):
            _, k, rest = s.split(".", 2)
            return f"features.{convs[int(k)]}.{rest}"
        return s
    return rename


def resnet_names(s):
    m = re.match(r"layer(\d+)\.(.*)", s)
    return f"layers.{int(m.group(1)) - 1}.{m.group(2)}" if m else s


def bert_names(s):
    for a, b in (("embeddings.word_embeddings", "word"),
                 ("embeddings.position_embeddings", "position"),
                 ("embeddings.token_type_embeddings", "token_type"),
                 ("embeddings.LayerNorm", "norm"),
                 ("encoder.layer.", "layers."), ("attention.self.", ""),
                 ("attention.output.dense", "dense"),
                 ("attention.output.LayerNorm", "norm1"),
                 ("intermediate.dense", "intermediate"),
                 ("output.dense", "output"), ("output.LayerNorm", "norm2")):
        s = s.replace(a, b)
    return s


def llama_names(s):
    return s.replace("rotary.", "").replace("self_attn.", "").replace(
        "mlp.", "")


def cases(t):
    """name: (model text, twin, twin arguments, input shape, output shape,
    renaming, integer input bound or None)."""
    v1, v2 = g.SMALL_VGG, [4, "M"]
    return {
        "vgg": (g.vgg(2, 12, v1, 2, 16, 10, True, "t"), t.vgg16,
                dict(batch=2, size=12, classes=10, cfg=v1, pool=2, hidden=16),
                [2, 3, 12, 12], [2, 10], vgg_names(v1), None),
        # windows of different sizes that overlap: 7 -> 3
        "vgg_pool": (g.vgg(1, 14, v2, 3, 8, 5, True, "t"), t.vgg16,
                     dict(batch=1, size=14, classes=5, cfg=v2, pool=3,
                          hidden=8), [1, 3, 14, 14], [1, 5], vgg_names(v2),
                     None),
        "resnet": (g.resnet(1, 16, [4, 8], 1, 10, True, "t"), t.resnet18,
                   dict(batch=1, size=16, classes=10, widths=(4, 8),
                        blocks=1), [1, 3, 16, 16], [1, 10], resnet_names,
                   None),
        "mobilenet": (g.mobilenet_v3(1, 16, g.SMALL_MBV3, 4, 16, 16, 10, True,
                                     "t"), t.mobilenet_v3_small,
                      dict(batch=1, size=16, classes=10, cfg=g.SMALL_MBV3,
                           stem=4, last=16, hidden=16), [1, 3, 16, 16],
                      [1, 10], lambda s: s, None),
        "bert": (g.bert(2, 8, 32, 4, 64, 2, 50, 16, True, "t"), t.bert_base,
                 dict(batch=2, seq=8, layers=2, hidden=32, heads=4, ffn=64,
                      vocab=50, positions=16), [2, 8], [2, 8, 32],
                 bert_names, 60),
        "llama": (g.llama_block(2, 8, 32, 4, 48, True, "t"), t.llama_block,
                  dict(batch=2, seq=8, hidden=32, heads=4, ffn=48),
                  [2, 8, 32], [2, 8, 32], llama_names, None),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stark-opt", required=True)
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--names", help="comma-separated cases (default: all)")
    args = ap.parse_args()
    import torch
    t = load_twins()
    all_cases = cases(t)
    names = args.names.split(",") if args.names else list(all_cases)
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            text, twin, kw, ishape, oshape, rename, hi = all_cases[name]
            n = math.prod(ishape)
            if hi:  # token ids, some outside the vocabulary (clamped)
                vals = [(i * 7919) % hi - 3 for i in range(n)]
                x = torch.tensor(vals, dtype=torch.long).reshape(ishape)
            else:
                vals = [math.sin(0.37 * i) for i in range(n)]
                x = torch.tensor(vals).reshape(ishape)
            got = torch.tensor(run_model(args, work, text, ishape, vals,
                                         oshape, bool(hi))).reshape(oshape)
            module, _ = twin(torch, "cpu", **kw)
            k = copy_weights(torch, text, module, rename)
            with torch.no_grad():
                ref = module(x)
            err = (got - ref).abs().max().item()
            ok = err <= TOLERANCE and ref.std().item() > 0
            failed += not ok
            print(f"{name}: {'ok' if ok else 'MISMATCH'}: max abs difference "
                  f"{err:.3g} (outputs up to {ref.abs().max().item():.3g}, "
                  f"spread {ref.std().item():.3g}; {k} weights)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
