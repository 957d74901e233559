#!/usr/bin/env python3
"""The peers of the attention kernels: torch's scaled_dot_product_attention
with each backend it has (cuDNN, flash, memory-efficient, math), timed with
CUDA events on a cold L2 (a 256 MB write between runs), median of 30 after 5
warm-ups. A backend that does not run a shape says so instead of a time.

  python3 bench/kernels/sdpa_peer.py [--batch 8 --heads 16 --seq 2048 --dim 128]
"""
import argparse
import json
import statistics

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = {
    "cudnn": SDPBackend.CUDNN_ATTENTION,
    "flash": SDPBackend.FLASH_ATTENTION,
    "efficient": SDPBackend.EFFICIENT_ATTENTION,
    "math": SDPBackend.MATH,
}


def time_backend(backend, q, k, v, causal, reps=30, warmup=5):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    times = []
    with sdpa_kernel([backend]):
        for i in range(warmup + reps):
            flush.zero_()
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            end.record()
            torch.cuda.synchronize()
            if i >= warmup:
                times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--dim", type=int, default=128)
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    rows = []
    shape = (args.batch, args.heads, args.seq, args.dim)
    for dtype in (torch.bfloat16, torch.float16, torch.float32):
        g = torch.Generator(device="cuda").manual_seed(0)
        q, k, v = (torch.randn(shape, device="cuda", dtype=dtype, generator=g)
                   for _ in range(3))
        for causal in (False, True):
            flops = 4 * args.batch * args.heads * args.seq * args.seq * args.dim
            if causal:
                flops //= 2
            for name, backend in BACKENDS.items():
                row = {"dtype": str(dtype).replace("torch.", ""),
                       "causal": causal, "backend": name,
                       "shape": list(shape)}
                try:
                    us = time_backend(backend, q, k, v, causal)
                    row["us"] = round(us, 2)
                    row["tflops"] = round(flops / us / 1e6, 1)
                except Exception as e:  # the backend does not take it
                    row["error"] = str(e).splitlines()[0][:160]
                rows.append(row)
                print(json.dumps(row), flush=True)
    print(json.dumps({"device": torch.cuda.get_device_name(),
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
