# Decides how stark links against MLIR and LLVM.
#
# Default: every stark library links the toolchain's shared libMLIR.so and
# libLLVM.so. Links take seconds, and StarkPlugin.so shares the registries of
# the stock mlir-opt that loads it.
#
# STARK_STATIC_LLVM=ON: the static MLIR archives, and the imported target LLVM
# (which the Debian archives name instead of the LLVM component libraries) is
# pointed at a linker script that groups the static LLVM archives. The result
# depends only on the C and C++ runtimes, so it runs on other distributions.

if(STARK_STATIC_LLVM)
  file(GLOB _stark_llvm_archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
  list(FILTER _stark_llvm_archives EXCLUDE REGEX "BOLT|Polly|gold|LLVMTableGen")
  find_library(STARK_ZSTD_STATIC NAMES libzstd.a REQUIRED)
  find_library(STARK_Z_STATIC NAMES libz.a REQUIRED)
  string(REPLACE ";" " " _stark_group "${_stark_llvm_archives}")
  set(_stark_script "${CMAKE_BINARY_DIR}/libLLVM-static-group.so")
  file(WRITE "${_stark_script}"
    "GROUP ( ${_stark_group} ${STARK_ZSTD_STATIC} ${STARK_Z_STATIC} )\n")
  foreach(_cfg "" _RELEASE _RELWITHDEBINFO _DEBUG _MINSIZEREL)
    set_property(TARGET LLVM PROPERTY IMPORTED_LOCATION${_cfg} "${_stark_script}")
    set_property(TARGET LLVM PROPERTY IMPORTED_SONAME${_cfg} "")
    set_property(TARGET LLVM PROPERTY IMPORTED_NO_SONAME${_cfg} TRUE)
  endforeach()
  # Debian builds a few static MLIR archives (MLIRExecutionEngine, MLIRJitRunner,
  # MLIRMlirOptMain, ...) with mlir_target_link_libraries, so their interface
  # names the shared MLIR instead of their real dependencies. Drop it: one
  # libMLIR.so on the link line would make the whole binary depend on it and
  # on libLLVM.so. What those archives need must then be named in the
  # stark_mlir_libs() call of whoever links them; anything missing shows up as
  # an undefined symbol rather than as a silent dynamic dependency.
  foreach(_tgt ${MLIR_EXPORTED_TARGETS})
    if(NOT TARGET ${_tgt})
      continue()
    endif()
    get_target_property(_type ${_tgt} TYPE)
    get_target_property(_deps ${_tgt} INTERFACE_LINK_LIBRARIES)
    if(_type STREQUAL "STATIC_LIBRARY" AND _deps AND "MLIR" IN_LIST _deps)
      list(REMOVE_ITEM _deps MLIR)
      set_property(TARGET ${_tgt} PROPERTY INTERFACE_LINK_LIBRARIES "${_deps}")
    endif()
  endforeach()
  # Nothing to find at run time but the C and C++ runtimes: a RUNPATH would
  # only carry this machine's folders along.
  set(CMAKE_SKIP_RPATH ON)

  # GNU ld takes ~16 s for each binary that pulls in a backend (NVPTX, JIT),
  # lld ~3 s. GCC's -fuse-ld=lld runs the first `ld.lld` it finds, so a folder
  # holding only the toolchain's own ld.lld goes in front with -B.
  option(STARK_STATIC_LLD "Link the static configuration with the toolchain's lld (lld-22)" ON)
  find_program(STARK_LLD ld.lld PATHS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
  if(STARK_STATIC_LLD AND STARK_LLD AND NOT LLVM_USE_LINKER)
    set(_stark_lld_dir "${CMAKE_BINARY_DIR}/lld")
    file(MAKE_DIRECTORY "${_stark_lld_dir}")
    file(CREATE_LINK "${STARK_LLD}" "${_stark_lld_dir}/ld.lld" SYMBOLIC)
    add_link_options("-fuse-ld=lld" "-B${_stark_lld_dir}")
    message(STATUS "stark: linking with ${STARK_LLD}")
  endif()
  message(STATUS "stark: static MLIR + LLVM (${_stark_script})")
else()
  message(STATUS "stark: linking the shared libMLIR.so and libLLVM.so")
endif()

# stark_mlir_libs(<out-var> <MLIR library>...)
# The libraries to name in LINK_LIBS for the chosen mode.
function(stark_mlir_libs out)
  if(STARK_STATIC_LLVM)
    set(${out} ${ARGN} PARENT_SCOPE)
  else()
    set(${out} MLIR PARENT_SCOPE)
  endif()
endfunction()
