#!/usr/bin/env python3
"""Wraps a CUDA C++ file into a stark candidate module for a problem.

    cuda_candidate.py PROBLEM.mlir KERNEL.cu [-D NAME=VALUE ...]
                      [--family NAME] > candidate.mlir

The .cu file states its launches in comments, in order, and optionally extra
NVRTC options:

    // launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1 shared=0
    // options: -use_fast_math

Grid, block and shared sizes are Python integer expressions over the -D
names. Each -D also becomes a `#define` at the top of the source. The
candidate's entry function has the problem's name and signature, a trivial
body, and the `stark.cuda` attribute (docs/cuda-target.md). --family names
the family that wrote it; `llm` marks it model-written, which makes the cuda
target check its PTX (docs/evaluation.md).
"""

import argparse
import re
import sys

LAUNCH = re.compile(r"^\s*//\s*launch:\s*(\S+)\s+(.*)$")
OPTIONS = re.compile(r"^\s*//\s*options:\s*(.*)$")


def parse_defines(pairs):
    defines = {}
    for pair in pairs or []:
        name, _, value = pair.partition("=")
        defines[name] = value
    return defines


def evaluate(expr, defines):
    names = {}
    for name, value in defines.items():
        try:
            names[name] = int(value, 0)
        except ValueError:
            pass
    return int(eval(expr, {"__builtins__": {}}, names))


def dims(text, defines):
    values = [evaluate(part, defines) for part in text.split(",")]
    return (values + [1, 1, 1])[:3]


def read_kernel(path, defines):
    """Returns (source with the defines, launches, options)."""
    with open(path) as f:
        body = f.read()
    launches, options = [], []
    for line in body.splitlines():
        m = LAUNCH.match(line)
        if m:
            launch = {"kernel": m.group(1), "grid": [1, 1, 1],
                      "block": [1, 1, 1], "shared": 0}
            for field in m.group(2).split():
                key, _, value = field.partition("=")
                if key in ("grid", "block"):
                    launch[key] = dims(value, defines)
                elif key == "shared":
                    launch[key] = evaluate(value, defines)
                else:
                    sys.exit(f"{path}: unknown launch field '{key}'")
            launches.append(launch)
        m = OPTIONS.match(line)
        if m:
            options.extend(m.group(1).split())
    if not launches:
        sys.exit(f"{path}: no '// launch:' line")
    prefix = "".join(f"#define {k} {v}\n" for k, v in defines.items())
    return prefix + body, launches, options


def mlir_string(text):
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) > 0x7e:
            out.extend(f"\\{b:02X}" for b in ch.encode())
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def problem_entry(path):
    """Returns (entry name, argument list text) of a problem module."""
    with open(path) as f:
        text = f.read()
    m = re.search(r'stark\.problem\s*=\s*#stark\.problem<[^>]*entry\s*=\s*"([^"]+)"', text)
    if not m:
        sys.exit(f"{path}: no stark.problem entry")
    entry = m.group(1)
    m = re.search(r"func\.func\s+@" + re.escape(entry) + r"\s*\((.*?)\)\s*(\{|attributes)",
                  text, re.S)
    if not m:
        sys.exit(f"{path}: no func.func @{entry}")
    return entry, " ".join(m.group(1).split())


def make_candidate(problem, kernel, defines, family=""):
    entry, args = problem_entry(problem)
    source, launches, options = read_kernel(kernel, defines)
    items = []
    for l in launches:
        items.append(
            "#stark.launch<kernel = %s, grid = array<i64: %d, %d, %d>, "
            "block = array<i64: %d, %d, %d>, shared_bytes = %d>"
            % ((mlir_string(l["kernel"]),) + tuple(l["grid"]) + tuple(l["block"])
               + (l["shared"],)))
    fields = [f"family = {mlir_string(family)}"] if family else []
    fields += [f"source = {mlir_string(source)}",
              "launches = [" + ",\n      ".join(items) + "]"]
    if options:
        fields.append("options = [" + ", ".join(mlir_string(o) for o in options) + "]")
    return (f"// Generated from {kernel} by cuda_candidate.py.\n"
            "module {\n"
            f"  func.func @{entry}({args}) attributes {{stark.cuda = #stark.cuda<\n"
            "      " + ",\n      ".join(fields) + ">} {\n"
            "    return\n"
            "  }\n"
            "}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("problem")
    ap.add_argument("kernel")
    ap.add_argument("-D", dest="defines", action="append", metavar="NAME=VALUE")
    ap.add_argument("--family", default="",
                    help="the family that wrote it (llm: a language model)")
    args = ap.parse_args()
    sys.stdout.write(make_candidate(args.problem, args.kernel,
                                    parse_defines(args.defines), args.family))


if __name__ == "__main__":
    main()
