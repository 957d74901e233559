# -*- Python -*-
# lit configuration of stark's regression tests.

import os
import shutil
import subprocess
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STARK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stark_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Unit"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%stark_lib_dir", config.stark_lib_dir))
config.substitutions.append(("%stark_src_root", config.stark_src_root))
config.substitutions.append(("%stark_tools_dir", config.stark_tools_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not` and `count` at the start of a RUN line come from PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Compiled candidates are cached in the test tree, not in the user's
# ~/.cache (CompileCache.h).
config.environment["STARK_COMPILE_CACHE"] = os.path.join(
    config.test_exec_root, "compile-cache")

# Stable, strict FileCheck everywhere.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

tool_dirs = [config.stark_tools_dir, config.llvm_tools_dir]
tools = [
    "stark-eval",
    ToolSubst("stark-llm", unresolved="ignore"),
    "stark-opt",
    "stark-template",
    "stark-tune",
    ToolSubst("mlir-opt", unresolved="ignore"),
    ToolSubst("mlir-runner", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Upstream tools exist where LLVM is installed, not in the GPU bundle.
if lit.util.which("mlir-opt", config.llvm_tools_dir) and lit.util.which(
        "mlir-runner", config.llvm_tools_dir):
    config.available_features.add("mlir-runner")

# The format check needs the clang-format the tree is formatted with: other
# versions lay out the same code differently.
clang_format = shutil.which("clang-format")
if clang_format:
    try:
        version = subprocess.run([clang_format, "--version"],
                                 capture_output=True, text=True,
                                 timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        version = ""
    if "clang-format version 14." in version:
        config.available_features.add("clang-format-14")

# agent=llm's HTTP client (libcurl); tests of it talk to a loopback server
# (test/LLM/Inputs/llm-server.py).
if config.stark_enable_llm:
    config.available_features.add("llm-http")
config.substitutions.append(
    ("%llm-server", "%s %s" % (sys.executable,
                               os.path.join(config.stark_src_root, "test",
                                            "LLM", "Inputs",
                                            "llm-server.py"))))

if not config.stark_static_llvm:
    config.available_features.add("stark-plugin")

# Evaluation across MPI ranks: the build has it and mpirun exists. The
# tests start every rank on this host. Open MPI refuses to run as root
# unless told, and its shared-memory transport needs ptrace rights that
# containers often lack, so ranks talk over TCP on the loopback.
if getattr(config, "stark_enable_mpi", False):
    config.available_features.add("mpi-build")
if "mpi-build" in config.available_features and shutil.which("mpirun"):
    config.available_features.add("mpi")
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    config.substitutions.append(
        ("%mpirun", "mpirun --oversubscribe --bind-to none "
                    "--mca btl self,tcp --mca btl_tcp_if_include lo "
                    "--mca oob_tcp_if_include lo"))


def cuda_device_usable():
    """True when a CUDA driver and at least one device answer."""
    if os.environ.get("STARK_DISABLE_CUDA_TESTS"):
        return False
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


def nvrtc_loadable():
    """True when NVRTC loads the way lib/Target/CudaDriver.cpp loads it."""
    import ctypes
    names = ["libnvrtc.so.13", "libnvrtc.so"]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.path.isdir(os.environ.get(var, "")):
            toolkit = os.environ[var]
            break
    else:
        toolkit = "/usr/local/cuda" if os.path.isdir("/usr/local/cuda") else ""
    if toolkit:
        names += [os.path.join(toolkit, "lib64", n) for n in names[:2]]
    for name in names:
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    return False


if config.stark_enable_cuda:
    config.available_features.add("cuda-target")
    if nvrtc_loadable():
        config.available_features.add("nvrtc")
    if cuda_device_usable():
        config.available_features.add("cuda-device")


def find_nvcc():
    """nvcc of the CUDA toolkit: CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        candidate = os.path.join(os.environ.get(var, ""), "bin", "nvcc")
        if os.environ.get(var) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc"
        if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)


# Compile-only tests of the CUDA C++ kernel sources need nvcc, not a GPU. The
# -gencode form builds sm_90a machine code only: `-arch=sm_90a` also runs a
# plain compute_90 pass, which rejects wgmma and setmaxnreg.
nvcc = find_nvcc()
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append((
        "%nvcc-compile",
        "%s -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Werror all-warnings "
        "-I %s -c" %
        (nvcc, os.path.join(config.stark_src_root, "lib", "Strategies",
                            "Kernels"))))
    # A host program over the kernel headers (their __host__ __device__
    # arithmetic), compiled and linked.
    config.substitutions.append((
        "%nvcc-host",
        "%s -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Werror all-warnings "
        "-I %s" %
        (nvcc, os.path.join(config.stark_src_root, "lib", "Strategies",
                            "Kernels"))))
