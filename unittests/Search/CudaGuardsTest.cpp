//===- CudaGuardsTest.cpp - Model-written CUDA C++ that must not run ------===//

#include "stark/Search/CudaGuards.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// A fine kernel: y = 2 * x, one input, one output.
const char *kGood = R"(
// A comment that mentions main(), clock() and cudaMalloc is fine.
#include <cuda_fp16.h>
static __device__ __forceinline__ float twice(float v) { return 2.0f * v; }
extern "C" __global__ void scale(const float *__restrict__ x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const char *label = "stream";
  if (i < n)
    y[i] = twice(x[i]);
}
)";

CudaGuardOptions oneInOneOut(bool outputsAreRead = false) {
  CudaGuardOptions o;
  o.numInputs = 1;
  o.numOutputs = 1;
  o.outputsAreRead = outputsAreRead;
  return o;
}

/// The reason `source` is rejected for, or "accepted".
std::string verdict(const std::string &source,
                    CudaGuardOptions options = oneInOneOut()) {
  std::string reason;
  if (succeeded(checkModelCuda(source, options, reason)))
    return "accepted";
  return reason;
}

/// kGood with `line` added at the start of the kernel's body.
std::string planted(const std::string &line) {
  std::string s = kGood;
  size_t at = s.find("int i =");
  return s.insert(at, line + "\n  ");
}

TEST(CudaGuardsTest, GoodKernelPasses) {
  EXPECT_EQ(verdict(kGood), "accepted");
}

TEST(CudaGuardsTest, CommentsAndStringsAreNotCode) {
  std::string s = stripCommentsAndStrings("a // main()\nb /* clock() */ c "
                                          "\"cudaMalloc\" 'x'");
  EXPECT_EQ(s.find("main"), std::string::npos);
  EXPECT_EQ(s.find("clock"), std::string::npos);
  EXPECT_EQ(s.find("cudaMalloc"), std::string::npos);
}

TEST(CudaGuardsTest, HostCode) {
  EXPECT_NE(verdict(std::string(kGood) + "int main() { return 0; }")
                .find("host code: a main function"),
            std::string::npos);
  EXPECT_NE(verdict(std::string(kGood) + "__host__ void setup() {}")
                .find("a __host__ function"),
            std::string::npos);
  EXPECT_NE(verdict(planted("float *tmp; cudaMalloc(&tmp, 4);"))
                .find("the CUDA runtime API"),
            std::string::npos);
  EXPECT_NE(
      verdict(planted("scale<<<1, 1>>>(x, y, n);")).find("a kernel launch"),
      std::string::npos);
}

TEST(CudaGuardsTest, StreamsThreadsTimers) {
  EXPECT_NE(verdict(planted("cudaStream_t s;")).find("rejected by the guards"),
            std::string::npos);
  EXPECT_NE(verdict(planted("int stream = 0;")).find("streams"),
            std::string::npos);
  EXPECT_NE(verdict("#include <thread>\n" + std::string(kGood))
                .find("threads or processes"),
            std::string::npos);
  EXPECT_NE(verdict(planted("long long t = clock64();")).find("a timer"),
            std::string::npos);
  EXPECT_NE(verdict(planted("unsigned long long t; asm volatile(\"mov.u64 "
                            "%0, %%globaltimer;\" : \"=l\"(t));"))
                .find("rejected by the guards"),
            std::string::npos);
  EXPECT_NE(verdict(planted("cudaEvent_t e;")).find("rejected by the guards"),
            std::string::npos);
  EXPECT_NE(verdict(planted("printf(\"%d\", i);")).find("escape the kernel"),
            std::string::npos);
}

TEST(CudaGuardsTest, WritesThroughInputs) {
  std::string mutableInput = kGood;
  mutableInput.replace(mutableInput.find("const float *__restrict__ x"),
                       strlen("const float *__restrict__ x"), "float *x");
  EXPECT_EQ(verdict(mutableInput),
            "rejected by the guards: kernel 'scale' may write through input "
            "'x' (pointer parameter 0); declare every input `const`");
  EXPECT_NE(
      verdict(planted("const_cast<float *>(x)[0] = 1;")).find("const_cast"),
      std::string::npos);
}

TEST(CudaGuardsTest, StateAcrossLaunches) {
  EXPECT_EQ(verdict("__device__ float cache[1024];\n" + std::string(kGood)),
            "rejected by the guards: state that outlives a launch: the "
            "mutable global 'cache'");
  EXPECT_NE(verdict(planted("static float seen[4];")).find("static variable"),
            std::string::npos);
  // Constant memory is read-only: allowed.
  EXPECT_EQ(verdict("__constant__ float table[4];\n" + std::string(kGood)),
            "accepted");
}

TEST(CudaGuardsTest, OutputsAsCache) {
  EXPECT_EQ(verdict(planted("if (i < n && y[i] == 2.0f * x[i]) return;")),
            "rejected by the guards: kernel 'scale' compares output 'y' "
            "(reading an output as an answer cache)");
  std::string readFirst = planted("float old = y[0];");
  EXPECT_NE(verdict(readFirst).find("reads output 'y' before writing it"),
            std::string::npos);
  // A problem that reads its outputs (C += A * B) may read them first.
  EXPECT_EQ(verdict(readFirst, oneInOneOut(/*outputsAreRead=*/true)),
            "accepted");
  std::string accumulate = planted("y[i] += 0.0f;");
  EXPECT_NE(verdict(accumulate).find("reads output 'y'"), std::string::npos);
  EXPECT_EQ(verdict(accumulate, oneInOneOut(true)), "accepted");
}

TEST(CudaGuardsTest, NoKernel) {
  EXPECT_EQ(verdict("__device__ float f(float x) { return x; }"),
            "rejected by the guards: no __global__ kernel");
}

} // namespace
