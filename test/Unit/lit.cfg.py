# -*- Python -*-
# Runs the GoogleTest unit tests under lit, so one summary counts them all.

import os

import lit.formats

config.name = "STARK-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.stark_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# NVRTC's outputs go to a compile cache of the build tree, not the user's
# ~/.cache (CompileCache.h).
config.environment["STARK_COMPILE_CACHE"] = os.path.join(
    config.stark_obj_root, "test", "compile-cache")
