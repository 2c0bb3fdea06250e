# Writes the instrumented copy of one source (rewrite mode of
# sonde_instrument). Run at build time:
#   cmake -DREWRITE=sonde-rewrite -DSPEC=probes.yaml -DSOURCE=/abs/a.cpp
#         -DOUTPUT=/build/sonde/t/a.cpp -DFLAGS_FILE=flags.txt
#         [-DMATCH_DIR=/build/sonde/t/matches] -P SondeRewriteSource.cmake
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
# Probes that match nothing in this one file are normal: the target's link
# reports those that match nothing in any (from the match summaries).
set(_match "")
if(MATCH_DIR)
  set(_match --match-dir "${MATCH_DIR}")
endif()
execute_process(
  COMMAND "${REWRITE}" --spec "${SPEC}" --quiet-unmatched ${_match}
          "${SOURCE}" -- ${_flags}
  OUTPUT_VARIABLE _text
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "sonde-rewrite failed on ${SOURCE} (exit status ${_rc})")
endif()

string(REPLACE "\\" "\\\\" _name "${SOURCE}")
string(REPLACE "\"" "\\\"" _name "${_name}")
set(_new "#line 1 \"${_name}\"\n${_text}")
# An unchanged copy is not touched: an edit of the spec that changes no
# plan (a comment, a probe of another file) rebuilds no object (Ninja
# re-checks a custom command's output time, `restat`).
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" _old)
  if(_old STREQUAL _new)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}.tmp" "${_new}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
