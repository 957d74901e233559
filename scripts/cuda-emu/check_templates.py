#!/usr/bin/env python3
"""Runs the CUDA template library's kernels on the CPU and compares them with
hand-written references, without a GPU.

    scripts/cuda-emu/check_templates.py [--build-dir build] [-j 2]
                                        [--family NAME] [FILTER]

The cases are the RUN lines of test/Integration/CUDA/templates/*.mlir (the
GPU tests: problem, family, parameters) plus tf32 cases those tests leave
out (families whose kernels use PTX the emulator does not model, and the
problems whose element types pick such a kernel in a family, are listed as
skipped). For each, stark-template writes the source and the launches, g++
compiles the source with cuda_emu.h in place of CUDA, and the program runs
the launches on random inputs (outputs the problem does not read are
prefilled with NaN) and compares the output with a reference written here,
independently of the templates, as plain loops in double precision.
Needs g++ with C++20 (<barrier>). Takes minutes: each CUDA thread is a host
thread.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTS = os.path.join(ROOT, "test", "Integration", "CUDA", "templates")
INPUTS = os.path.join(TESTS, "Inputs")

CTYPE = {"f32": "float", "f16": "__half", "bf16": "__nv_bfloat16",
         "f64": "double", "i32": "int", "i64": "long long"}

# Per problem in Inputs/: the loops (name, extent) in linalg order, the flat
# offset of each operand (inputs, then the output) and the new output value
# from a0, a1, ... and out. `read`: whether the problem reads its output;
# `init`: the value a fill + contraction problem starts its output from.
# Integer inputs are drawn from -8..8; `grid`: float inputs are rounded to
# multiples of it (so that rows hold equal values).

def attention_code(batch, queries, keys, d, dv, q, k, scale, mask=None):
    """The reference of softmax(Q K^T * scale [+ mask]) V in double
    precision, Q argument `q` [batch][queries][d], K argument `k`
    [batch][keys][d], V arg2 [batch][keys][dv], the scores of a row in s.
    `mask`: causal, key j > query i gets -inf added to its score ("add") or
    in its place ("select")."""
    score = {None: f"x * {scale}",
             "add": f"x * {scale} + (j > i ? -INFINITY : 0.0)",
             "select": f"j > i ? -INFINITY : x * {scale}"}[mask]
    return f"""
  for (long b = 0; b < {batch}; ++b)
    for (long i = 0; i < {queries}; ++i) {{
      double s[{keys}], mx = -INFINITY, l = 0;
      for (long j = 0; j < {keys}; ++j) {{
        double x = 0;
        for (long d = 0; d < {d}; ++d) x += to_d(arg{q}[(b*{queries}+i)*{d}+d]) * to_d(arg{k}[(b*{keys}+j)*{d}+d]);
        s[j] = {score};
        mx = std::max(mx, s[j]);
      }}
      for (long j = 0; j < {keys}; ++j) l += (s[j] = std::exp(s[j] - mx));
      for (long e = 0; e < {dv}; ++e) {{
        double o = 0;
        for (long j = 0; j < {keys}; ++j) o += s[j] * to_d(arg2[(b*{keys}+j)*{dv}+e]);
        ref[(b*{queries}+i)*{dv}+e] = o / l;
      }}
    }}"""

MATMUL = "out + a0*a1"
REFERENCES = {
    "matmul-255x129x191": dict(loops=[("m", 255), ("n", 191), ("k", 129)], offs=["m*129+k", "k*191+n", "m*191+n"], body=MATMUL, read=True),
    "matmul-300x260x132": dict(loops=[("m", 300), ("n", 260), ("k", 132)], offs=["m*132+k", "k*260+n", "m*260+n"], body=MATMUL, read=True),
    "matmul-1024-f32": dict(loops=[("m", 1024), ("n", 1024), ("k", 1024)], offs=["m*1024+k", "k*1024+n", "m*1024+n"], body=MATMUL, read=True),
    "matmul-tatb-f32-odd": dict(loops=[("m", 257), ("n", 131), ("k", 99)], offs=["k*257+m", "n*99+k", "m*131+n"], body=MATMUL, read=True),
    "matmul-large-k": dict(loops=[("m", 64), ("n", 64), ("k", 8192)], offs=["m*8192+k", "k*64+n", "m*64+n"], body=MATMUL, read=True),
    "matmul-large-k-ta-odd": dict(loops=[("m", 70), ("n", 45), ("k", 3001)], offs=["k*70+m", "k*45+n", "m*45+n"], body=MATMUL, read=True),
    "matmul-ta-f32": dict(loops=[("m", 200), ("n", 72), ("k", 132)], offs=["k*200+m", "k*72+n", "m*72+n"], body=MATMUL, read=True),
    "matmul-tb-f16": dict(loops=[("m", 200), ("n", 120), ("k", 136)], offs=["m*136+k", "n*136+k", "m*120+n"], body=MATMUL, read=True),
    "matmul-f16-out": dict(loops=[("m", 70), ("n", 90), ("k", 6)], offs=["m*6+k", "k*90+n", "m*90+n"], body=MATMUL, read=True),
    "matmul-f16-odd": dict(loops=[("m", 97), ("n", 83), ("k", 75)], offs=["m*75+k", "k*83+n", "m*83+n"], body=MATMUL, read=True),
    "batch-matmul-f32": dict(loops=[("b", 5), ("m", 33), ("n", 48), ("k", 40)], offs=["b*33*40+m*40+k", "b*40*48+k*48+n", "b*33*48+m*48+n"], body=MATMUL, read=True),
    "batch-matmul-bf16": dict(loops=[("b", 3), ("m", 70), ("n", 96), ("k", 64)], offs=["b*70*64+m*64+k", "b*64*96+k*96+n", "b*70*96+m*96+n"], body=MATMUL, read=True),
    "linear-f32-rows5-k1030": dict(loops=[("m", 5), ("n", 999), ("k", 1030)], offs=["m*1030+k", "n*1030+k", "m*999+n"], body=MATMUL, read=True),
    "matvec": dict(loops=[("m", 300), ("k", 1000)], offs=["m*1000+k", "k", "m"], body=MATMUL, read=True),
    "vecmat": dict(loops=[("n", 517), ("k", 301)], offs=["k", "k*517+n", "n"], body=MATMUL, read=True),
    "dot": dict(loops=[("k", 100003)], offs=["k", "k", "0"], body=MATMUL, read=True),
    "conv-nhwc": dict(loops=[("n", 2), ("oh", 16), ("ow", 16), ("f", 32), ("kh", 3), ("kw", 3), ("c", 16)],
                      offs=["((n*18+oh+kh)*18+ow+kw)*16+c", "((kh*3+kw)*16+c)*32+f", "((n*16+oh)*16+ow)*32+f"], body=MATMUL, read=True),
    "fill-matmul-255x129x191": dict(loops=[("m", 255), ("n", 191), ("k", 129)], offs=["m*129+k", "k*191+n", "m*191+n"], body=MATMUL, read=False, init=0.5),
    "fill-matmul-f16-odd": dict(loops=[("m", 97), ("n", 83), ("k", 75)], offs=["m*75+k", "k*83+n", "m*83+n"], body=MATMUL, read=False, init=0.0),
    "fill-batch-matmul-f32-rows2": dict(loops=[("b", 3), ("m", 2), ("n", 260), ("k", 700)],
                                        offs=["(b*2+m)*700+k", "(b*700+k)*260+n", "(b*2+m)*260+n"], body=MATMUL, read=False, init=-0.25),
    "fill-linear-f32-rows8": dict(loops=[("m", 8), ("n", 260), ("k", 2052)], offs=["m*2052+k", "n*2052+k", "m*260+n"], body=MATMUL, read=False, init=0.5),
    "fill-conv-nhwc": dict(loops=[("n", 2), ("oh", 16), ("ow", 16), ("f", 32), ("kh", 3), ("kw", 3), ("c", 16)],
                           offs=["((n*18+oh+kh)*18+ow+kw)*16+c", "((kh*3+kw)*16+c)*32+f", "((n*16+oh)*16+ow)*32+f"], body=MATMUL, read=False, init=0.0),
    "conv-nhwc-f16": dict(loops=[("n", 1), ("oh", 7), ("ow", 7), ("f", 40), ("kh", 3), ("kw", 3), ("c", 24)],
                          offs=["((n*15+oh*2+kh)*15+ow*2+kw)*24+c", "((kh*3+kw)*24+c)*40+f", "((n*7+oh)*7+ow)*40+f"], body=MATMUL, read=True),
    "conv-nchw-strided": dict(loops=[("n", 1), ("f", 8), ("oh", 8), ("ow", 8), ("c", 3), ("kh", 3), ("kw", 3)],
                              offs=["((n*3+c)*17+oh*2+kh)*17+ow*2+kw", "((f*3+c)*3+kh)*3+kw", "((n*8+f)*8+oh)*8+ow"], body=MATMUL, read=True),
    "fill-conv2d-nchw-dilated": dict(loops=[("n", 2), ("f", 9), ("oh", 9), ("ow", 19), ("c", 20), ("kh", 3), ("kw", 2)],
                                     offs=["((n*20+c)*13+oh+kh*2)*40+ow*2+kw*3", "((f*20+c)*3+kh)*2+kw", "((n*9+f)*9+oh)*19+ow"],
                                     body=MATMUL, read=False, init=0.5),
    "conv1d-nwc": dict(loops=[("n", 2), ("ow", 18), ("f", 10), ("kw", 5), ("c", 6)],
                       offs=["(n*43+ow*2+kw*2)*6+c", "(kw*6+c)*10+f", "(n*18+ow)*10+f"], body=MATMUL, read=True),
    "fill-depthwise": dict(loops=[("n", 2), ("c", 24), ("oh", 18), ("ow", 16), ("kh", 3), ("kw", 3)],
                           offs=["((n*24+c)*20+oh+kh)*18+ow+kw", "(c*3+kh)*3+kw", "((n*24+c)*18+oh)*16+ow"],
                           body=MATMUL, read=False, init=0.5),
    "depthwise": dict(loops=[("n", 2), ("oh", 10), ("ow", 10), ("c", 24), ("kh", 3), ("kw", 3)],
                      offs=["((n*12+oh+kh)*12+ow+kw)*24+c", "(kh*3+kw)*24+c", "((n*10+oh)*10+ow)*24+c"], body=MATMUL, read=True),
    "maxpool": dict(loops=[("n", 1), ("oh", 4), ("ow", 4), ("c", 4), ("kh", 2), ("kw", 2)],
                    offs=["((n*9+oh*2+kh)*9+ow*2+kw)*4+c", "kh*2+kw", "((n*4+oh)*4+ow)*4+c"], body="std::max(out, a0)", read=True),
    "sumpool": dict(loops=[("n", 2), ("oh", 9), ("ow", 9), ("c", 6), ("kh", 3), ("kw", 3)],
                    offs=["((n*11+oh+kh)*11+ow+kw)*6+c", "kh*3+kw", "((n*9+oh)*9+ow)*6+c"], body="out + a0", read=True),
    "row-sum": dict(loops=[("i", 300), ("j", 1001)], offs=["i*1001+j", "i"], body="out + a0", read=True),
    "row-max-f16": dict(loops=[("i", 64), ("j", 4096)], offs=["i*4096+j", "i"], body="std::max(out, a0)", read=True),
    "col-min": dict(loops=[("i", 513), ("j", 130)], offs=["i*130+j", "j"], body="std::min(out, a0)", read=True),
    "middle-sum": dict(loops=[("a", 6), ("b", 77), ("c", 50)], offs=["(a*77+b)*50+c", "a*50+c"], body="out + a0", read=True),
    "sum-squares": dict(loops=[("i", 512), ("j", 1000)], offs=["i*1000+j", "0"], body="out + a0*a0", read=True),
    "mean-rows": dict(loops=[("i", 128), ("j", 300)], offs=["i*300+j", "i"], body="out + a0*(double)0.00333333341f", read=True),
    "bias-gelu": dict(loops=[("i", 130), ("j", 256)], offs=["i*256+j", "j", "i*256+j"],
                      body="0.5*(a0+a1)*(1+std::erf((a0+a1)*(double)0.707106769f))", read=False),
    "relu-transpose-f16": dict(loops=[("i", 65), ("j", 33)], offs=["j*65+i", "i*33+j"], body="(a0 > 0 ? a0 : 0.0)", read=False),
    "add-relu-bf16": dict(loops=[("i", 96), ("j", 640)], offs=["i*640+j", "i*640+j", "i*640+j"], body="std::max(a0+a1, 0.0)", read=False),
    "accumulate-scaled": dict(loops=[("i", 1000), ("j", 3)], offs=["i*3+j", "i*3+j"], body="out + std::tanh(a0)*-1.5", read=True),
    "fill": dict(loops=[("i", 1001)], offs=["i"], body="2.5", read=False, inputs=0),
    # fused chains (FusedView): element-wise chains as one body, chains with
    # reductions as plain C++ over arg0, arg1, ... into ref
    "fused-swish-scale-bias": dict(loops=[("i", 20), ("j", 64)], offs=["i*64+j", "j", "i*64+j"],
                                   body="a0/(1+std::exp(-a0))*(double)1.702f + a1", read=False),
    "fused-log-softmax": dict(read=False, code="""
  for (long r = 0; r < 7; ++r) {
    double mx = -INFINITY, s = 0;
    for (long j = 0; j < 300; ++j) mx = std::max(mx, to_d(arg0[r*300+j]));
    for (long j = 0; j < 300; ++j) s += std::exp(to_d(arg0[r*300+j]) - mx);
    for (long j = 0; j < 300; ++j) ref[r*300+j] = to_d(arg0[r*300+j]) - mx - std::log(s);
  }"""),
    "fused-mean-middle": dict(read=False, code="""
  for (long a = 0; a < 3; ++a)
    for (long c = 0; c < 33; ++c) {
      double s = 0;
      for (long b = 0; b < 50; ++b) s += to_d(arg0[(a*50+b)*33+c]);
      ref[a*33+c] = s / 50;
    }"""),
    "fused-mean-middle-long": dict(read=False, code="""
  for (long a = 0; a < 4; ++a)
    for (long c = 0; c < 65; ++c) {
      double s = 0;
      for (long b = 0; b < 300; ++b) s += to_d(arg0[(a*300+b)*65+c]);
      ref[a*65+c] = s / 300;
    }"""),
    "fused-argmax-middle": dict(read=False, grid=0.25, code="""
  for (long a = 0; a < 4; ++a)
    for (long c = 0; c < 33; ++c) {
      double best = -INFINITY; long at = 0;
      for (long b = 0; b < 64; ++b)
        if (to_d(arg0[(a*64+b)*33+c]) > best) { best = to_d(arg0[(a*64+b)*33+c]); at = b; }
      ref[a*33+c] = at;
    }"""),
    "fused-pool-mean": dict(read=False, code="""
  for (long r = 0; r < 16; ++r) {
    double s = 0;
    for (long k = 0; k < 196; ++k) s += to_d(arg0[r*196+k]);
    ref[r] = s / (double)196.0f;
  }"""),
    "fused-argmin-rows-i32": dict(read=False, code="""
  for (long r = 0; r < 32; ++r) {
    long best = 2147483647, at = 0;
    for (long j = 0; j < 300; ++j)
      if (arg0[r*300+j] < best) { best = arg0[r*300+j]; at = j; }
    ref[r] = at;
  }"""),
    "fused-bias-sigmoid-sum": dict(read=False, code="""
  for (long i = 0; i < 37; ++i) {
    double s = 0.5;
    for (long j = 0; j < 129; ++j) s += 1 / (1 + std::exp(-(to_d(arg0[i*129+j]) + to_d(arg1[j]))));
    ref[i] = s;
  }"""),
    "fused-layernorm-gelu": dict(read=False, code="""
  for (long r = 0; r < 6; ++r) {
    double s = 0, q = 0;
    for (long j = 0; j < 160; ++j) s += to_d(arg0[r*160+j]);
    const double mean = s / 160;
    for (long j = 0; j < 160; ++j) q += (to_d(arg0[r*160+j]) - mean) * (to_d(arg0[r*160+j]) - mean);
    const double rstd = 1 / std::sqrt(q / 160 + (double)1e-5f);
    for (long j = 0; j < 160; ++j) {
      double y = (to_d(arg0[r*160+j]) - mean) * rstd * to_d(arg1[j]) + to_d(arg2[j]);
      ref[r*160+j] = 0.5 * y * (1 + std::erf(y * (double)0.707106769f));
    }
  }"""),
    "fused-group-norm": dict(read=False, code="""
  for (long g = 0; g < 2; ++g) {
    double s = 0, q = 0;
    for (long j = 0; j < 24; ++j) s += to_d(arg0[g*24+j]);
    const double mean = s / 24;
    for (long j = 0; j < 24; ++j) q += (to_d(arg0[g*24+j]) - mean) * (to_d(arg0[g*24+j]) - mean);
    const double rstd = 1 / std::sqrt(q / 24 + (double)1e-5f);
    for (long j = 0; j < 24; ++j)
      ref[g*24+j] = (to_d(arg0[g*24+j]) - mean) * rstd * to_d(arg1[g*2+j/12]) + to_d(arg2[g*2+j/12]);
  }"""),
    "fused-logsumexp-relu": dict(read=False, code="""
  for (long i = 0; i < 5; ++i) {
    double m = -INFINITY, s = 0;
    for (long j = 0; j < 7; ++j) m = std::max(m, to_d(arg0[i*7+j]) + to_d(arg1[j]));
    for (long j = 0; j < 7; ++j) s += std::exp(to_d(arg0[i*7+j]) + to_d(arg1[j]) - m);
    ref[i] = std::max(m + std::log(s), 0.0);
  }"""),
    "fused-rmsnorm-silu": dict(read=False, code="""
  for (long r = 0; r < 6; ++r) {
    double q = 0;
    for (long j = 0; j < 160; ++j) q += to_d(arg0[r*160+j]) * to_d(arg0[r*160+j]);
    const double rstd = 1 / std::sqrt(q / 160 + (double)1e-6f);
    for (long j = 0; j < 160; ++j) {
      double y = to_d(arg0[r*160+j]) * rstd * to_d(arg1[j]);
      ref[r*160+j] = y / (1 + std::exp(-y));
    }
  }"""),
    # contractions with their epilogue (EpilogueView), as plain C++
    "fused-matmul-bias-gelu": dict(read=False, code="""
  for (long m = 0; m < 100; ++m)
    for (long n = 0; n < 130; ++n) {
      double s = 0;
      for (long k = 0; k < 72; ++k) s += to_d(arg0[m*72+k]) * to_d(arg1[k*130+n]);
      const double y = s + to_d(arg2[n]);
      ref[m*130+n] = 0.5 * y * (1 + std::erf(y * (double)0.707106769f));
    }"""),
    "fused-classifier-f32-bias-relu": dict(read=False, code="""
  for (long m = 0; m < 1; ++m)
    for (long n = 0; n < 1000; ++n) {
      double s = 0;
      for (long k = 0; k < 4100; ++k) s += to_d(arg0[m*4100+k]) * to_d(arg1[k*1000+n]);
      ref[m*1000+n] = std::max(s + to_d(arg2[n]), 0.0);
    }"""),
    "fused-linear-f32-cols3-bias": dict(read=False, code="""
  for (long m = 0; m < 300; ++m)
    for (long n = 0; n < 3; ++n) {
      double s = 0;
      for (long k = 0; k < 1024; ++k) s += to_d(arg0[m*1024+k]) * to_d(arg1[n*1024+k]);
      ref[m*3+n] = s + to_d(arg2[n]);
    }"""),
    "fused-matmul-bias-bf16": dict(read=False, code="""
  for (long m = 0; m < 96; ++m)
    for (long n = 0; n < 80; ++n) {
      double s = 0;
      for (long k = 0; k < 64; ++k) s += to_d(arg0[m*64+k]) * to_d(arg1[k*80+n]);
      ref[m*80+n] = s + to_d(arg2[n]);
    }"""),
    "fused-batch-matmul-scale": dict(read=False, code="""
  for (long b = 0; b < 4; ++b)
    for (long m = 0; m < 33; ++m)
      for (long n = 0; n < 48; ++n) {
        double s = 0;
        for (long k = 0; k < 40; ++k) s += to_d(arg0[(b*33+m)*40+k]) * to_d(arg1[(b*40+k)*48+n]);
        ref[(b*33+m)*48+n] = s * 0.125;
      }"""),
    "fused-matmul-residual-silu": dict(read=False, code="""
  for (long m = 0; m < 70; ++m)
    for (long n = 0; n < 45; ++n) {
      double s = 0.25;
      for (long k = 0; k < 3001; ++k) s += to_d(arg0[m*3001+k]) * to_d(arg1[k*45+n]);
      const double z = s * to_d(arg2[m]) + to_d(arg3[m*45+n]);
      ref[m*45+n] = z / (1 + std::exp(-z));
    }"""),
    # contractions with operand prologues (EpilogueView::aPrologue, bPrologue)
    "fused-scale-relu-matmul": dict(read=False, code="""
  for (long m = 0; m < 70; ++m)
    for (long n = 0; n < 45; ++n) {
      double s = 0.5;
      for (long k = 0; k < 131; ++k) {
        const double a = std::max(to_d(arg0[m*131+k]) * to_d(arg1[k]), 0.0);
        s += a * to_d(arg2[k*45+n]);
      }
      ref[m*45+n] = s;
    }"""),
    "fused-dequant-matmul-bias": dict(read=False, code="""
  for (long m = 0; m < 100; ++m)
    for (long n = 0; n < 130; ++n) {
      double s = 0;
      for (long k = 0; k < 72; ++k) s += to_d(arg0[m*72+k]) * (to_d(arg1[k*130+n]) * to_d(arg2[n]));
      ref[m*130+n] = s + to_d(arg3[n]);
    }"""),
    # convolutions with their epilogue (implicit GEMM + EpilogueView)
    "fused-conv2d-bias-relu": dict(read=False, code="""
  for (long n = 0; n < 2; ++n)
    for (long f = 0; f < 12; ++f)
      for (long oh = 0; oh < 16; ++oh)
        for (long ow = 0; ow < 14; ++ow) {
          double s = 0;
          for (long c = 0; c < 6; ++c)
            for (long kh = 0; kh < 3; ++kh)
              for (long kw = 0; kw < 3; ++kw)
                s += to_d(arg0[((n*6+c)*33+2*oh+kh)*29+2*ow+kw]) * to_d(arg1[((f*6+c)*3+kh)*3+kw]);
          ref[((n*12+f)*16+oh)*14+ow] = std::max(s + to_d(arg2[f]), 0.0);
        }"""),
    "fused-conv1d-bias-relu": dict(read=False, code="""
  for (long n = 0; n < 3; ++n)
    for (long f = 0; f < 7; ++f)
      for (long l = 0; l < 68; ++l) {
        double s = 0;
        for (long c = 0; c < 5; ++c)
          for (long k = 0; k < 3; ++k)
            s += to_d(arg0[(n*5+c)*70+l+k]) * to_d(arg1[(f*5+c)*3+k]);
        ref[(n*7+f)*68+l] = std::max(s + to_d(arg2[f]), 0.0);
      }"""),
    "fused-conv1x1-pixel-bias-hardsigmoid": dict(read=False, code="""
  for (long f = 0; f < 144; ++f) {
    double s = 0;
    for (long c = 0; c < 576; ++c) s += to_d(arg0[c]) * to_d(arg1[f*576+c]);
    const double y = s + to_d(arg2[f]);
    ref[f] = std::min(std::max(y + 3.0, 0.0), 6.0) / 6.0;
  }"""),
    "fused-conv2d-nhwc-residual-tanh": dict(read=False, code="""
  for (long n = 0; n < 2; ++n)
    for (long oh = 0; oh < 8; ++oh)
      for (long ow = 0; ow < 7; ++ow)
        for (long f = 0; f < 6; ++f) {
          double s = 0.5;
          for (long kh = 0; kh < 3; ++kh)
            for (long kw = 0; kw < 3; ++kw)
              for (long c = 0; c < 5; ++c)
                s += to_d(arg0[((n*10+oh+kh)*9+ow+kw)*5+c]) * to_d(arg1[((kh*3+kw)*5+c)*6+f]);
          const long o = ((n*8+oh)*7+ow)*6+f;
          ref[o] = std::tanh(s + to_d(arg2[o]));
        }"""),
    # scans (masked reductions that accumulate into their output, read):
    # the output's old value plus the prefix over the row
    "cumsum": dict(read=True, code="""
  for (long r = 0; r < 64; ++r) {
    double s = 0;
    for (long j = 0; j < 1000; ++j) { s += to_d(arg0[r*1000+j]); ref[r*1000+j] += s; }
  }"""),
    "cumsum-reverse": dict(read=True, code="""
  for (long r = 0; r < 17; ++r) {
    double s = 0;
    for (long j = 299; j >= 0; --j) { s += to_d(arg0[r*300+j]); ref[r*300+j] += s; }
  }"""),
    "cumprod": dict(read=True, code="""
  for (long r = 0; r < 32; ++r) {
    double p = 1;
    for (long j = 0; j < 200; ++j) { p *= to_d(arg0[r*200+j]); ref[r*200+j] *= p; }
  }"""),
    "cumsum-long-exclusive": dict(read=True, code="""
  for (long r = 0; r < 3; ++r) {
    double s = 0;
    for (long j = 0; j < 5000; ++j) { ref[r*5000+j] += s; s += to_d(arg0[r*5000+j]); }
  }"""),
    "cumsum-masked": dict(read=True, code="""
  for (long r = 0; r < 16; ++r) {
    double s = 0;
    for (long j = 0; j < 777; ++j) { const double x = to_d(arg0[r*777+j]); s += x*x; ref[r*777+j] += s; }
  }"""),
    # softmax: rows, row length, stride between row elements
    "softmax": dict(softmax=(33, 1000, 1)),
    "softmax-long": dict(softmax=(8, 30000, 1)),
    "softmax-strided-f16": dict(softmax=(4 * 50, 77, 50)),
    # layer norm / RMS norm: rows, row length, gamma, beta, eps (f32 value)
    "layernorm": dict(norm=dict(rms=False, rows=33, length=1000, gamma=True, beta=True, eps="1e-5f")),
    "layernorm-long": dict(norm=dict(rms=False, rows=8, length=30000, gamma=False, beta=False, eps="1e-5f")),
    "layernorm-3d": dict(norm=dict(rms=False, rows=5, length=300, gamma=True, beta=False, eps="1e-5f")),
    "rmsnorm": dict(norm=dict(rms=True, rows=80, length=768, gamma=True, beta=False, eps="1e-6f")),
    "rmsnorm-odd": dict(norm=dict(rms=True, rows=37, length=999, gamma=False, beta=False, eps="1e-6f")),
    # attention in f32 (attention_code). Q [3][77][40], K [3][131][40],
    # V [3][131][24], scaled by 1/sqrt(40) as the IR's f32 constant.
    "attention-f32-odd": dict(read=False, code=attention_code(
        3, 77, 131, 40, 24, q=0, k=1, scale="(double)0.158113882f")),
    # Causal: K is arg0 (transposed into the scores), Q arg1, V arg2, all
    # [4][128][64]; key j > query i gets -inf added (no row is fully masked).
    "attention-f32-causal": dict(read=False, code=attention_code(
        4, 128, 128, 64, 64, q=1, k=0, scale="0.125", mask="add")),
    # As attention-f32-causal, the -inf selected in place of the score.
    "attention-f32-causal-select": dict(read=False, code=attention_code(
        4, 128, 128, 64, 64, q=1, k=0, scale="0.125", mask="select")),
}

# tf32 is not held to the f32 tolerance by the evaluator, so the GPU tests
# leave it out; here it gets a tf32-sized one.
EXTRA_CASES = [
    ("matmul-255x129x191", "gemm_tc", "allow_tf32=1,bm=64,bn=64,bk=16,wm=32,wn=32,stages=3"),
    ("matmul-300x260x132", "gemm_tc", "allow_tf32=1,bm=128,bn=128,bk=32,wm=64,wn=32,stages=2"),
    ("matmul-ta-f32", "gemm_tc", "allow_tf32=1,bm=64,bn=64,bk=16,wm=32,wn=32,stages=4"),
    ("batch-matmul-f32", "gemm_tc", "allow_tf32=1"),
]


def gpu_test_cases():
    run = re.compile(r"Inputs/([\w.-]+)\.mlir --family (\w+)(?: --params (\S+))?")
    cases = []
    for name in sorted(os.listdir(TESTS)):
        if not name.endswith(".mlir"):
            continue
        for line in open(os.path.join(TESTS, name)):
            if line.startswith("// RUN:"):
                m = run.search(line)
                if m:
                    case = (m.group(1), m.group(2), m.group(3))
                    # A test may name a case twice (a candidate written to a
                    # file to be planted wrong): it is run once.
                    if case not in cases:
                        cases.append(case)
    return cases


def signature(path):
    text = open(path).read()
    params = re.search(r"func\.func @kernel\((.*?)\)\s*\{", text, re.S).group(1)
    args = []
    for t in re.findall(r"memref<([^>]*)>", params):
        parts = t.split("x")
        n = 1
        for d in parts[:-1]:
            n *= int(d)
        args.append((parts[-1], n))
    return args


def launches(module):
    pattern = (r"#stark\.launch<block = array<i64: (\d+), (\d+), (\d+)>, grid = array<i64: "
               r"(\d+), (\d+), (\d+)>, kernel = \"(\w+)\"")
    return [(m.group(7), m.group(4, 5, 6), m.group(1, 2, 3))
            for m in re.finditer(pattern, module)]


# The helpers in inline PTX of the embedded GEMM kernels (GemmCommon.cuh) and
# of attention (Attention.cuh), by name, and what replaces them: a synchronous
# copy that zero-fills like cp.async (attention's shared addresses become
# offsets into the dynamic shared memory, which is all it copies to) and a
# maximum that propagates NaN like max.NaN.
EMBEDDED_PTX = {
    "unsigned smemAddr": "",
    "void cpAsync16": "__device__ __forceinline__ void cpAsync16(void *dst, const void *src, int bytes) "
                      "{ if (bytes > 0) ::std::memcpy(dst, src, bytes); "
                      "::std::memset((char *)dst + bytes, 0, 16 - bytes); }\n",
    "void cpAsync4": "__device__ __forceinline__ void cpAsync4(void *dst, const void *src, bool valid) "
                     "{ if (valid) ::std::memcpy(dst, src, 4); else ::std::memset(dst, 0, 4); }\n",
    "void cpAsyncCommit": "__device__ __forceinline__ void cpAsyncCommit() {}\n",
    "unsigned attnSmemAddr": "__device__ __forceinline__ unsigned attnSmemAddr(const void *p) "
                             "{ return (unsigned)((const unsigned char *)p - g_dyn_smem); }\n",
    "float attnMax": "__device__ __forceinline__ float attnMax(float a, float b) "
                     "{ return (a != a || b != b) ? NAN : ::std::max(a, b); }\n",
    "void attnCopy16": "__device__ __forceinline__ void attnCopy16(unsigned dst, const void *src, bool full) "
                       "{ if (full) ::std::memcpy(g_dyn_smem + dst, src, 16); "
                       "else ::std::memset(g_dyn_smem + dst, 0, 16); }\n",
    "void attnCopy4": "__device__ __forceinline__ void attnCopy4(unsigned dst, const void *src, bool full) "
                      "{ if (full) ::std::memcpy(g_dyn_smem + dst, src, 4); "
                      "else ::std::memset(g_dyn_smem + dst, 0, 4); }\n",
    "void attnCommit": "__device__ __forceinline__ void attnCommit() {}\n",
}

# Kernels written in PTX the emulator does not model (mma.sync fragments,
# ldmatrix): their cases are reported as skipped.
UNEMULATED_FAMILIES = {"gemm_3xtf32": "mma.sync and ldmatrix in PTX",
                       "gemm_wgmma": "wgmma, mbarriers and setmaxnreg in PTX"}
# Families that pick such a kernel by the problem's element types: the input
# types (of the problem's @kernel) that select it, and why it is skipped.
# Attention runs f16 and bf16 on tensor cores (AttentionMma16.cuh), f32 on
# CUDA cores (AttentionF32.cuh, emulated).
UNEMULATED_INPUTS = {"attention": ({"f16", "bf16"},
                                   "f16 / bf16 attention: mma.sync, ldmatrix and ex2.approx in PTX")}


def emulated_source(source):
    """cp.async becomes a synchronous copy, dynamic shared memory a buffer."""
    for head, body in EMBEDDED_PTX.items():
        source = re.sub(r"__device__ __forceinline__ " + re.escape(head) + r"\(.*?\n\}\n",
                        lambda m: body, source, flags=re.S)
    source = re.sub(r"template <int N> __device__ __forceinline__ void (cpAsyncWait|attnWait)\(\) \{.*?\n\}\n",
                    lambda m: f"template <int N> __device__ __forceinline__ void {m.group(1)}() {{}}\n",
                    source, flags=re.S)
    source = source.replace("extern __shared__ float4 smem4[];",
                            "float4 *smem4 = reinterpret_cast<float4 *>(g_dyn_smem);")
    source = re.sub(
        r"__device__ __forceinline__ void stark_cp_async16\(.*?\n\}\n",
        "__device__ __forceinline__ void stark_cp_async16(void* smem, const void* gmem, bool full) "
        "{ if (full) std::memcpy(smem, gmem, 16); else std::memset(smem, 0, 16); }\n",
        source, flags=re.S)
    source = re.sub(r"__device__ __forceinline__ void stark_cp_async_commit\(\).*?\n",
                    "__device__ __forceinline__ void stark_cp_async_commit() {}\n", source)
    source = re.sub(r"template <int N> __device__ __forceinline__ void stark_cp_async_wait\(\).*?\n",
                    "template <int N> __device__ __forceinline__ void stark_cp_async_wait() {}\n", source)
    return source.replace(
        "extern __shared__ __align__(128) unsigned char stark_smem[];",
        "unsigned char* stark_smem = g_dyn_smem;")


def driver(ref, args, kernel_launches, tolerance):
    out = len(args) - 1
    inputs = 1 if "softmax" in ref else ref.get("inputs", out)
    if "norm" in ref:
        inputs = out
    lines = ['#include "cuda_emu.h"', '#include "kernel.cu"', "#include <random>",
             "template <class T> double to_d(T v) { return (double)stark_widen(v); }",
             "int main() {",
             "  std::mt19937 rng(7);",
             "  std::uniform_real_distribution<float> U(-1.f, 1.f);"]
    lines.append("  std::uniform_int_distribution<int> I(-8, 8);")
    for i, (elem, n) in enumerate(args):
        t = CTYPE[elem]
        integer = elem.startswith("i")
        draw = "I(rng)" if integer else "U(rng)"
        if "grid" in ref and not integer:
            draw = f"std::round(U(rng) / {ref['grid']}) * {ref['grid']}"
        init = draw if i < inputs or ref.get("read") else ("-12345" if integer else "NAN")
        lines.append(f"  std::vector<{t}> arg{i}({n});")
        lines.append(f"  for (auto& v : arg{i}) v = stark_cast<{t}>({init});")
    lines.append(f"  std::vector<double> ref(arg{out}.size());")
    lines.append(f"  for (size_t i = 0; i < ref.size(); ++i) ref[i] = to_d(arg{out}[i]);")
    if "init" in ref:
        lines.append(f"  for (auto& r : ref) r = {ref['init']};")
    if "softmax" in ref:
        rows, length, inner = ref["softmax"]
        lines.append(f"""  for (long r = 0; r < {rows}; ++r) {{
    long base = (r / {inner}) * {length} * {inner} + r % {inner};
    double mx = -INFINITY, s = 0;
    for (long j = 0; j < {length}; ++j) mx = std::max(mx, to_d(arg0[base + j * {inner}]));
    for (long j = 0; j < {length}; ++j) s += std::exp(to_d(arg0[base + j * {inner}]) - mx);
    for (long j = 0; j < {length}; ++j) ref[base + j * {inner}] = std::exp(to_d(arg0[base + j * {inner}]) - mx) / s;
  }}""")
    elif "norm" in ref:
        nm = ref["norm"]
        g = "to_d(arg1[j])" if nm["gamma"] else "1.0"
        b = f"to_d(arg{1 + nm['gamma']}[j])" if nm["beta"] else "0.0"
        lines.append(f"""  for (long r = 0; r < {nm['rows']}; ++r) {{
    const long base = r * {nm['length']};
    double s = 0, q = 0;
    for (long j = 0; j < {nm['length']}; ++j) s += to_d(arg0[base + j]);
    const double mean = {'0.0' if nm['rms'] else f"s / {nm['length']}"};
    for (long j = 0; j < {nm['length']}; ++j) q += (to_d(arg0[base + j]) - mean) * (to_d(arg0[base + j]) - mean);
    const double rstd = 1.0 / std::sqrt(q / {nm['length']} + (double){nm['eps']});
    for (long j = 0; j < {nm['length']}; ++j) ref[base + j] = (to_d(arg0[base + j]) - mean) * rstd * {g} + {b};
  }}""")
    elif "code" in ref:
        lines.append(ref["code"])
    else:
        for name, extent in ref["loops"]:
            lines.append(f"  for (long {name} = 0; {name} < {extent}; ++{name})")
        body = [f"double a{i} = to_d(arg{i}[{ref['offs'][i]}]);" for i in range(inputs)]
        body.append(f"double out = ref[{ref['offs'][-1]}];")
        body.append(f"ref[{ref['offs'][-1]}] = {ref['body']};")
        lines.append("  { " + " ".join(body) + " }")
    pointers = ", ".join(f"arg{i}.data()" for i in range(len(args)))
    for kernel, grid, block in kernel_launches:
        lines.append(f"  emu_launch({kernel}, dim3{{{grid[0]}u, {grid[1]}u, {grid[2]}u}}, "
                     f"dim3{{{block[0]}u, {block[1]}u, {block[2]}u}}, {pointers});")
    lines.append(f"""  double worst = 0; long at = -1;
  for (size_t i = 0; i < ref.size(); ++i) {{
    double err = std::fabs(to_d(arg{out}[i]) - ref[i]) / (1.0 + std::fabs(ref[i]));
    if (!(err <= worst)) {{ worst = err; at = (long)i; if (std::isnan(err)) break; }}
  }}
  bool ok = worst <= {tolerance};
  std::printf("%s worst error %.3g at %ld", ok ? "PASS" : "FAIL", worst, at);
  if (at >= 0) std::printf(" (got %.6g, want %.6g)", to_d(arg{out}[at]), ref[at]);
  std::printf("\\n");
  return ok ? 0 : 1;
}}""")
    return "\n".join(lines) + "\n"


def check(case, tool, workdir):
    problem, family, params = case
    label = f"{problem} {family} {params or '(first set)'}"
    path = os.path.join(INPUTS, problem + ".mlir")
    cmd = [tool, "--problem", path, "--family", family]
    if params:
        cmd += ["--params", params]
    module = subprocess.run(cmd, capture_output=True, text=True)
    if module.returncode:
        return False, f"FAIL (stark-template: {module.stderr.strip()}) | {label}"
    source = subprocess.run(cmd + ["--source"], capture_output=True, text=True).stdout
    with open(os.path.join(workdir, "kernel.cu"), "w") as f:
        f.write(emulated_source(source))
    args = signature(path)
    tolerance = {"f32": 2e-4, "f64": 1e-9, "f16": 2e-2, "bf16": 3e-2,
                 "i32": 0, "i64": 0}[args[-1][0]]
    if params and "allow_tf32=1" in params:
        tolerance = 2e-2
    kernel_launches = launches(module.stdout)
    if not kernel_launches:
        return False, f"FAIL (no launch in the candidate) | {label}"
    with open(os.path.join(workdir, "main.cpp"), "w") as f:
        f.write(driver(REFERENCES[problem], args, kernel_launches, tolerance))
    binary = os.path.join(workdir, "a.out")
    build = subprocess.run(["g++", "-std=c++20", "-O1", "-w", "-pthread", "-I" + HERE,
                            "-I" + os.path.join(HERE, "stub"), "-I" + workdir, "-o", binary,
                            os.path.join(workdir, "main.cpp")], capture_output=True, text=True)
    if build.returncode:
        return False, f"FAIL (g++: {build.stderr[:2000]}) | {label}"
    run = subprocess.run([binary], capture_output=True, text=True)
    return run.returncode == 0, f"{run.stdout.strip()} | {label}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--family", default="",
                        help="only the cases of this family")
    parser.add_argument("--skip", action="append", default=[],
                        help="leave out a case, named as the output names "
                             "it: 'PROBLEM FAMILY PARAMS' or 'PROBLEM "
                             "FAMILY (first set)' (repeatable)")
    parser.add_argument("filter", nargs="?", default="")
    options = parser.parse_args()
    tool = os.path.join(options.build_dir, "bin", "stark-template")
    cases = [c for c in gpu_test_cases() + EXTRA_CASES
             if options.filter in " ".join(x or "" for x in c)
             and (not options.family or c[1] == options.family)]
    def why_skipped(case):
        if f"{case[0]} {case[1]} {case[2] or '(first set)'}" in options.skip:
            return "left out by --skip"
        if case[1] in UNEMULATED_FAMILIES:
            return UNEMULATED_FAMILIES[case[1]]
        if case[1] in UNEMULATED_INPUTS:
            kinds, why = UNEMULATED_INPUTS[case[1]]
            if any(elem in kinds for elem, _ in signature(os.path.join(INPUTS, case[0] + ".mlir"))[:-1]):
                return why
        if case[0] not in REFERENCES:
            return "no reference written here"
        return None
    skipped = [c for c in cases if why_skipped(c)]
    cases = [c for c in cases if not why_skipped(c)]
    for case in skipped:
        problem, family, params = case
        print(f"SKIP ({why_skipped(case)}) | {problem} {family} {params or '(first set)'}")
    with tempfile.TemporaryDirectory(prefix="stark-cuda-emu-") as root:
        dirs = []
        for i in range(len(cases)):
            dirs.append(os.path.join(root, str(i)))
            os.makedirs(dirs[-1])
        with concurrent.futures.ThreadPoolExecutor(options.j) as pool:
            results = list(pool.map(lambda i: check(cases[i], tool, dirs[i]), range(len(cases))))
    failures = 0
    for ok, text in results:
        print(text)
        failures += not ok
    print(f"{len(cases) - failures} of {len(cases)} passed, {len(skipped)} skipped")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
