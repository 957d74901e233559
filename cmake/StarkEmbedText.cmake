# cmake -P script: writes OUTPUT, a C++ header that holds the bytes of INPUT
# as `inline constexpr char <NAME>[]` in namespace mlir::stark::<NAMESPACE>
# (default: kernels).
#
# The text goes in as raw string literals of at most 4000 bytes each, which
# the compiler joins: readable in the generated file, and well under the
# per-literal limits some compilers have. A file that contains the closing
# delimiter is refused rather than embedded wrongly.
cmake_minimum_required(VERSION 3.20)
foreach(var INPUT OUTPUT NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "StarkEmbedText.cmake: -D${var}=... is required")
  endif()
endforeach()

if(NOT DEFINED NAMESPACE)
  set(NAMESPACE kernels)
endif()
set(delimiter "stark_cuh")
file(READ "${INPUT}" text)
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains ')${delimiter}\"', the delimiter of "
                      "the raw string literal it is embedded in")
endif()

string(LENGTH "${text}" length)
set(chunk 4000)
set(body "")
set(offset 0)
while(offset LESS length)
  string(SUBSTRING "${text}" ${offset} ${chunk} piece)
  string(APPEND body "    R\"${delimiter}(${piece})${delimiter}\"\n")
  math(EXPR offset "${offset} + ${chunk}")
endwhile()
if(length EQUAL 0)
  set(body "    \"\"\n")
endif()

get_filename_component(source "${INPUT}" NAME)
get_filename_component(extension "${INPUT}" LAST_EXT)
set(header "// Generated from ${source} by cmake/StarkEmbedText.cmake: edit the ${extension}.
#ifndef STARK_EMBEDDED_${NAME}
#define STARK_EMBEDDED_${NAME}

namespace mlir::stark::${NAMESPACE} {
inline constexpr char ${NAME}[] =
${body};
} // namespace mlir::stark::${NAMESPACE}

#endif // STARK_EMBEDDED_${NAME}
")
# Unchanged output keeps its time stamp: nothing that includes it rebuilds.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL header)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${header}")
