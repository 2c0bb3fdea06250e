# Writes the instrumented copy of one source (rewrite mode of
# sonde_instrument). Run at build time:
#   cmake -DREWRITE=sonde-rewrite -DSPEC=probes.yaml -DSOURCE=/abs/a.cpp
#         -DOUTPUT=/build/sonde/t/a.cpp -DFLAGS_FILE=flags.txt
#         -P SondeRewriteSource.cmake
#
# The copy starts with `#line 1 "<SOURCE>"`: diagnostics, __FILE__, debug
# info and coverage name the user's file, and since insertions never add a
# line, every line number is the original's.
foreach(_v REWRITE SPEC SOURCE OUTPUT FLAGS_FILE)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "SondeRewriteSource.cmake: -D${_v}= is required")
  endif()
endforeach()

file(STRINGS "${FLAGS_FILE}" _flags)
execute_process(
  COMMAND "${REWRITE}" --spec "${SPEC}" --quiet-unmatched "${SOURCE}" -- ${_flags}
  OUTPUT_VARIABLE _text
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "sonde-rewrite failed on ${SOURCE} (exit status ${_rc})")
endif()

string(REPLACE "\\" "\\\\" _name "${SOURCE}")
string(REPLACE "\"" "\\\"" _name "${_name}")
file(WRITE "${OUTPUT}.tmp" "#line 1 \"${_name}\"\n${_text}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
