[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
D=test/Integration/CUDA
for ms in 2000000ull 20000000ull 200000000ull 2000000000ull; do
  sed "s/2000000ull/$ms/" $D/faults/Inputs/matmul-clock-replay.cu > /tmp/clock.cu
  python3 $D/Inputs/cuda_candidate.py $D/Inputs/matmul-problem.mlir /tmp/clock.cu -D M=255 -D K=129 -D N=191 > /tmp/clock.mlir
  echo "== $ms"; /tmp/stark/bin/stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1 --problem $D/Inputs/matmul-problem.mlir --candidate /tmp/clock.mlir | head -3
done
