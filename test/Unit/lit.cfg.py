# -*- Python -*-
# Runs the GoogleTest unit tests under lit, so one summary counts them all.

import os

import lit.formats

config.name = "STARK-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.stark_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
