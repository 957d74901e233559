#!/usr/bin/env python3
"""Checks the special-value cases of the planted-fault suite themselves.

    ieee_check.py RUNNER_UTILS C_RUNNER_UTILS

Runs each problem (as the reference) and its candidates on hand-made inputs
holding NaN, +-inf, -0, denormals and masking patterns (a row of -inf, a
block of eight -inf, scattered -inf), with mlir-opt and mlir-runner from
PATH, and prints per candidate how many output elements differ from the
reference under IEEE-aware rules: NaN where the reference is NaN, the same
infinity where it is infinite, else within 1e-4 * (1 + |reference|). A
control must print 0 and a fault more than 0, whatever the evaluator does.
The softmax reference is written out as stark's cpu target decomposes
linalg.softmax on buffers (maxnumf from NaN, exp(x - max), sum, divide).
"""
import math
import os
import re
import struct
import subprocess
import sys

D = os.path.dirname(os.path.abspath(__file__)) + "/"
LIBS = ",".join(sys.argv[1:3])

def f32(v):
    if isinstance(v, str): return v
    if math.isnan(v): return "0x7FC00000"
    if math.isinf(v): return "0x7F800000" if v > 0 else "0xFF800000"
    if v == 0 and math.copysign(1, v) < 0: return "0x80000000"
    return "0x%08X" % struct.unpack("<I", struct.pack("<f", v))[0]

def fin(i, j, scale=4.0):
    return (((i * 33 + j) * 37) % 19 - 9) / scale

def special_rows(R, C):
    X = [[fin(i, j) for j in range(C)] for i in range(R)]
    inf, nan = float("inf"), float("nan")
    for i in range(R):
        k = i % 8
        if k == 0: X[i] = [-inf] * C
        elif k == 1:
            for j in range(min(8, C)): X[i][j] = -inf
        elif k == 2: X[i][5 % C] = nan
        elif k == 3: X[i][10 % C] = inf
        elif k == 4:
            vals = [-0.0, 0.0, -0.0, 0.0, 1e-40, -1e-40, 1.4e-45, -1.4e-45]
            for j in range(min(8, C)): X[i][j] = vals[j]
        elif k == 5:
            for j in (3, 17, 32):
                if j < C: X[i][j] = -inf
        elif k == 6: X[i][1] = inf; X[i][2] = -inf
        elif k == 7: X[i][0] = 1000.0; X[i][1] = -1000.0; X[i][2] = 100.0
    return X

def dense(X):
    return "dense<[" + ", ".join("[" + ", ".join(f32(v) for v in row) + "]" for row in X) + "]>"

def dense1(v):
    return "dense<[" + ", ".join(f32(x) for x in v) + "]>"

def body(path, newname):
    t = open(path).read()
    t = re.sub(r"module attributes \{stark\.problem = #stark\.problem<[^>]*>\}", "module", t)
    t = t.replace("@kernel", "@" + newname)
    # Private helpers and globals get the function's name as a prefix.
    for h in ("split", "combine"):
        t = t.replace("@" + h, "@" + newname + "_" + h)
    t = re.sub(r"memref.global \"private\" (constant )?@(\w+)", lambda m: 'memref.global "private" ' + (m.group(1) or "") + "@" + newname + "_" + m.group(2), t)
    t = re.sub(r"memref.get_global @(\w+)", lambda m: "memref.get_global @" + newname + "_" + m.group(1), t)
    # Keep what is inside the outermost module.
    lines = t.splitlines()
    maps = [l for l in lines if l.startswith("#")]
    start = next(i for i, l in enumerate(lines) if l.startswith("module"))
    end = max(i for i, l in enumerate(lines) if l.strip() == "}")
    inner = lines[start + 1:end]
    # So do affine map aliases.
    text = "\n".join(maps + inner)
    for m in set(re.findall(r"^#(\w+) =", "\n".join(maps), re.M)):
        text = re.sub(r"#" + m + r"\b", "#" + newname + "_" + m, text)
    return text

SOFTMAX_REF = """
func.func @ref(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c33 = arith.constant 33 : index
  %nan = arith.constant 0xFFC00000 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %m = scf.for %j = %c0 to %c33 step %c1 iter_args(%a = %nan) -> (f32) {
      %x = memref.load %X[%i, %j] : memref<8x33xf32>
      %n = arith.maxnumf %x, %a : f32
      scf.yield %n : f32
    }
    scf.for %j = %c0 to %c33 step %c1 {
      %x = memref.load %X[%i, %j] : memref<8x33xf32>
      %d = arith.subf %x, %m : f32
      %e = math.exp %d : f32
      memref.store %e, %Y[%i, %j] : memref<8x33xf32>
    }
    %s = scf.for %j = %c0 to %c33 step %c1 iter_args(%a = %zero) -> (f32) {
      %e = memref.load %Y[%i, %j] : memref<8x33xf32>
      %n = arith.addf %e, %a : f32
      scf.yield %n : f32
    }
    scf.for %j = %c0 to %c33 step %c1 {
      %e = memref.load %Y[%i, %j] : memref<8x33xf32>
      %q = arith.divf %e, %s : f32
      memref.store %q, %Y[%i, %j] : memref<8x33xf32>
    }
  }
  return
}
"""

def compare_fn(shape):
    dims = shape.split("x")[:-1]
    rank = len(dims)
    idx = ", ".join(f"%i{k}" for k in range(rank))
    inner = f"""
    %r = memref.load %R[{idx}] : memref<{shape}>
    %c = memref.load %C[{idx}] : memref<{shape}>
    %rn = arith.cmpf uno, %r, %r : f32
    %cn = arith.cmpf uno, %c, %c : f32
    %bn = arith.andi %rn, %cn : i1
    %eq = arith.cmpf oeq, %r, %c : f32
    %diff = arith.subf %r, %c : f32
    %ad = math.absf %diff : f32
    %ar = math.absf %r : f32
    %one = arith.constant 1.0 : f32
    %tol0 = arith.constant 1.0e-4 : f32
    %s1 = arith.addf %ar, %one : f32
    %tol = arith.mulf %s1, %tol0 : f32
    %closev = arith.cmpf ole, %ad, %tol : f32
    %infc = arith.constant 0x7F800000 : f32
    %rfin = arith.cmpf olt, %ar, %infc : f32
    %close = arith.andi %closev, %rfin : i1
    %o1 = arith.ori %bn, %eq : i1
    %ok = arith.ori %o1, %close : i1
    %inc = arith.select %ok, %c0, %c1 : index
    %nacc = arith.addi %acc{rank-1}, %inc : index
    scf.yield %nacc : index"""
    body = []
    for k, d in enumerate(dims):
        prev = f"%acc{k-1}" if k else "%zero"
        body.append(f"{'  '*k}  %r{k} = scf.for %i{k} = %c0 to %d{k} step %c1 iter_args(%acc{k} = {prev}) -> (index) {{")
    inner_lines = ["  " * rank + l.strip() for l in inner.strip().splitlines()]
    body += inner_lines
    for k in reversed(range(rank)):
        body.append(f"{'  '*k}  }}")
        if k > 0:
            body.append(f"{'  '*k}  scf.yield %r{k} : index")
    consts = "\n".join(f"  %d{k} = arith.constant {d} : index" for k, d in enumerate(dims))
    return f"""
func.func @compare(%R: memref<{shape}>, %C: memref<{shape}>) -> index {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : index
{consts}
""" + "\n".join(body) + "\n  return %r0 : index\n}\n"

def run(problem_body, cand, args, outidx, label):
    # args: (shape, dense initial contents) per argument, outputs included.
    g = []
    main = ["func.func @main() {"]
    names_r, names_c = [], []
    for n, (shape, val) in enumerate(args):
        g.append(f'memref.global "private" constant @arg{n} : memref<{shape}> = {val}')
        main.append(f"  %g{n} = memref.get_global @arg{n} : memref<{shape}>")
        main.append(f"  %a{n} = memref.alloc() : memref<{shape}>")
        main.append(f"  %b{n} = memref.alloc() : memref<{shape}>")
        main.append(f"  memref.copy %g{n}, %a{n} : memref<{shape}> to memref<{shape}>")
        main.append(f"  memref.copy %g{n}, %b{n} : memref<{shape}> to memref<{shape}>")
        names_r.append(f"%a{n}"); names_c.append(f"%b{n}")
    types = ", ".join(f"memref<{s}>" for s, _ in args)
    main.append(f"  func.call @ref({', '.join(names_r)}) : ({types}) -> ()")
    main.append(f"  func.call @cand({', '.join(names_c)}) : ({types}) -> ()")
    shape = args[outidx][0]
    main.append(f"  %bad = func.call @compare(%a{outidx}, %b{outidx}) : (memref<{shape}>, memref<{shape}>) -> index")
    main.append("  vector.print %bad : index")
    main.append("  return\n}")
    mod = "\n".join(g) + "\n" + problem_body + "\n" + body(D + cand, "cand") + "\n" + compare_fn(shape) + "\n".join(main)
    mod = "\n".join(l for l in mod.splitlines() if not l.startswith("#")) 
    maps = "\n".join(l for l in (problem_body + "\n" + body(D + cand, "cand")).splitlines() if l.startswith("#"))
    mod = maps + "\nmodule {\n" + mod + "\n}\n"
    p = subprocess.run(f"mlir-opt - --linalg-generalize-named-ops --convert-linalg-to-loops --convert-vector-to-scf --lower-affine --convert-scf-to-cf --expand-strided-metadata --convert-vector-to-llvm --convert-math-to-llvm --convert-math-to-libm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-index-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs={LIBS}", shell=True, input=mod, capture_output=True, text=True)
    out = (p.stdout.strip() or p.stderr.strip()[:400])
    print(f"{label}: {out} mismatches", flush=True)

X = special_rows(8, 33)
xarg = ("8x33xf32", dense(X))
yarg = ("8x33xf32", dense([[float('nan')] * 33 for _ in range(8)]))
for prob, cands in [("relu", ["relu-vector", "relu-nan-to-zero", "relu-step-division"]),
                    ("clamp", ["clamp-vector", "clamp-removed"]),
                    ("recip", ["recip-vector", "recip-loses-negative-zero"]),
                    ("copysign", ["copysign-bits", "copysign-select"]),
                    ("scale-up", ["scale-up-vector", "scale-up-flush-denormals"]),
                    ("exp", ["exp-vector", "exp-saturated"])]:
    pb = body(D + prob + "-problem.mlir", "ref")
    for c in cands:
        run(pb, c + ".mlir", [xarg, yarg], 1, c)
for c in ["softmax-online", "softmax-online-unguarded", "softmax-mask-as-finite"]:
    run(SOFTMAX_REF, c + ".mlir", [xarg, yarg], 1, c)
pb = body(D + "rowmax-problem.mlir", "ref")
for c in ["rowmax-vector", "rowmax-ignores-nan"]:
    run(pb, c + ".mlir", [xarg, ("8xf32", dense1([0.5, -1.0, 0.0, -0.0, 2.0, float('-inf'), 1.0, -3.0]))], 1, c)
# matmul
A = [[fin(i, j) for j in range(17)] for i in range(33)]
B = [[fin(j, i, 8.0) for j in range(9)] for i in range(17)]
inf, nan = float('inf'), float('nan')
A[0][0] = inf; A[1][3] = -inf; A[2][5] = nan; A[3] = [-0.0] * 17; A[4][2] = 1e-40; A[5][1] = inf; A[5][2] = -inf
B[6] = [1e-42] * 9; B[7][2] = 0.0; B[0][4] = 0.0
Cinit = [[fin(i, j, 16.0) for j in range(9)] for i in range(33)]
pb = body(D + "matmul-f32-problem.mlir", "ref")
for c in ["matmul-register-tiled", "matmul-3xtf32-split-guarded", "matmul-3xtf32-split"]:
    run(pb, c + ".mlir", [("33x17xf32", dense(A)), ("17x9xf32", dense(B)), ("33x9xf32", dense(Cinit))], 2, c)
# layernorm
XL = special_rows(8, 64)
G = [fin(0, j) for j in range(64)]; G[5] = inf; G[6] = -0.0
Bt = [fin(1, j) for j in range(64)]; Bt[7] = nan
pb = body(D + "layernorm-problem.mlir", "ref")
run(pb, "layernorm-vector.mlir", [("8x64xf32", dense(XL)), ("64xf32", dense1(G)), ("64xf32", dense1(Bt)), ("8x64xf32", dense([[nan] * 64] * 8))], 3, "layernorm-vector")
# rowsum
XR = special_rows(16, 33)
pb = body(D + "rowsum-problem.mlir", "ref")
run(pb, "rowsum-blocks.mlir", [("16x33xf32", dense(XR)), ("16xf32", dense1([fin(0, j) for j in range(16)]))], 1, "rowsum-blocks")
XA = special_rows(7, 13); XB = [[fin(j, i) for j in range(13)] for i in range(7)]; XB[0][0] = float('inf')
pb = body(D + "add-f32-problem.mlir", "ref")
run(pb, "add-vector.mlir", [("7x13xf32", dense(XA)), ("7x13xf32", dense(XB)), ("7x13xf32", dense([[nan] * 13] * 7))], 2, "add-vector")
