# sonde_instrument(): probes from a spec, in a CMake target.
#
#   sonde_instrument(TARGET trainer SPEC probes.yaml
#                    [MODE plugin|rewrite] [SOURCES a.cpp b.cpp ...]
#                    [STRICT])
#
# MODE plugin (the default) compiles the target's C++ sources with
# -fplugin=sonde-plugin-clang<N>.so: the compiler must be that clang.
# MODE rewrite generates instrumented copies of the sources at build time
# (with sonde-rewrite, again whenever the spec or a source changes) and
# compiles the copies instead, with any compiler (g++ too). Either way the
# target links sonde::runtime (and sonde::torch when it links torch: call
# sonde_instrument after target_link_libraries). SOURCES restricts instrumentation to those
# sources (default: every C++ source of the target).
#
# A probe that matches nothing in the whole target (a misspelled selector)
# is reported once per link of the target, at the spec's line, with the
# nearest name that exists; STRICT makes it an error that stops the link.
# Each compile (or rewrite) writes a match summary under
# <binary dir>/sonde/<target>/matches/, and a PRE_LINK step reads them all
# (sonde-rewrite --report-unmatched).
#
# Call it in the directory that creates the target. It expects the
# variables the package (or the sonde project itself) sets: SONDE_PLUGIN,
# SONDE_PLUGIN_CLANG_MAJOR, SONDE_REWRITE and SONDE_RUNTIME_TARGET.
include_guard(GLOBAL)

function(sonde_instrument)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "STRICT" "TARGET;SPEC;MODE" "SOURCES")
  set(_fn "sonde_instrument(TARGET ${ARG_TARGET})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET OR NOT TARGET "${ARG_TARGET}")
    message(FATAL_ERROR "sonde_instrument: TARGET '${ARG_TARGET}' is not a target")
  endif()
  if(NOT ARG_SPEC)
    message(FATAL_ERROR "${_fn}: SPEC probes.yaml is required")
  endif()
  if(NOT ARG_MODE)
    set(ARG_MODE plugin)
  endif()
  if(NOT ARG_MODE MATCHES "^(plugin|rewrite)$")
    message(FATAL_ERROR "${_fn}: MODE is 'plugin' or 'rewrite', not '${ARG_MODE}'")
  endif()
  get_filename_component(_spec "${ARG_SPEC}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${_spec}")
    message(FATAL_ERROR "${_fn}: no probe spec at '${_spec}'")
  endif()
  get_target_property(_srcdir ${ARG_TARGET} SOURCE_DIR)

  # The sources to instrument, absolute.
  set(_sources "")
  if(ARG_SOURCES)
    foreach(_s IN LISTS ARG_SOURCES)
      get_filename_component(_s "${_s}" ABSOLUTE BASE_DIR "${_srcdir}")
      list(APPEND _sources "${_s}")
    endforeach()
  else()
    get_target_property(_all ${ARG_TARGET} SOURCES)
    foreach(_s IN LISTS _all)
      if(_s MATCHES "\\$<" OR NOT _s MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C)$")
        continue()
      endif()
      get_filename_component(_s "${_s}" ABSOLUTE BASE_DIR "${_srcdir}")
      list(APPEND _sources "${_s}")
    endforeach()
  endif()
  if(NOT _sources)
    message(FATAL_ERROR "${_fn}: no C++ source to instrument")
  endif()

  if(NOT SONDE_RUNTIME_TARGET)
    set(SONDE_RUNTIME_TARGET sonde::runtime)
  endif()
  _sonde_link_private(${ARG_TARGET} ${SONDE_RUNTIME_TARGET})
  # A libtorch program also gets libsonde_torch (tensor watches, model state,
  # op tracing: sonde/torch.h), when this sonde has it. Seen only if the
  # target links torch before this call.
  if(NOT SONDE_TORCH_TARGET)
    set(SONDE_TORCH_TARGET sonde::torch)
  endif()
  get_target_property(_libs ${ARG_TARGET} LINK_LIBRARIES)
  # The light header that covers every runtime header a plan may need: the
  # command line includes it in both modes (rewrite mode cannot apply the
  # plan's headers per file; plugin mode adds it for the build's sake).
  set(_sonde_more_h "sonde/containers.h")
  if(TARGET ${SONDE_TORCH_TARGET} AND _libs AND
     ("torch" IN_LIST _libs OR "Torch::torch" IN_LIST _libs))
    _sonde_link_private(${ARG_TARGET} ${SONDE_TORCH_TARGET})
    set(_sonde_more_h "sonde/torch.h")
  endif()

  # Plugin mode: the spec's hash goes into the flags: editing the spec
  # re-runs cmake, which changes the flags, so every instrumented source is
  # rebuilt, and compiler caches (ccache) cannot serve an object built for
  # another spec. Rewrite mode: the copies are rewritten when the spec
  # changes, and an object is rebuilt only when its copy changed.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_spec}")
  file(SHA256 "${_spec}" _hash)

  # Where each compile writes its match summary, and the sources expected
  # there (the report reads exactly those).
  set(_matchdir "${CMAKE_CURRENT_BINARY_DIR}/sonde/${ARG_TARGET}/matches")
  set(_matchlist "${CMAKE_CURRENT_BINARY_DIR}/sonde/${ARG_TARGET}/sources.txt")
  list(JOIN _sources "\n" _lines)
  file(WRITE "${_matchlist}" "${_lines}\n")

  if(ARG_MODE STREQUAL "plugin")
    _sonde_instrument_plugin()
  else()
    _sonde_instrument_rewrite()
  endif()

  # Before each link: the probes that match nothing in the whole target.
  if(TARGET sonde-rewrite)
    set(_reporter sonde-rewrite)
    add_dependencies(${ARG_TARGET} sonde-rewrite)
  else()
    set(_reporter "${SONDE_REWRITE}")
  endif()
  if(_reporter)
    set(_strict "")
    if(ARG_STRICT)
      set(_strict "--strict")
    endif()
    add_custom_command(TARGET ${ARG_TARGET} PRE_LINK
      COMMAND ${_reporter} --spec "${_spec}" --match-dir "${_matchdir}"
              --report-unmatched "target ${ARG_TARGET}" ${_strict}
              "${_matchlist}" --
      VERBATIM)
  else()
    message(WARNING "${_fn}: this sonde has no sonde-rewrite: probes that "
                    "match nothing in the target are not reported")
  endif()
endfunction()

# Links LIB to TARGET privately, whichever signature the target's own
# target_link_libraries() calls use: a keyword call (PRIVATE) would make
# CMake refuse a target linked the plain way, as libtorch's examples write
# it (`target_link_libraries(mnist "${TORCH_LIBRARIES}")`: "All uses of
# target_link_libraries with a target must be either all-keyword or
# all-plain"). The properties are what target_link_libraries(PRIVATE) sets,
# and they take no signature.
function(_sonde_link_private target lib)
  set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES ${lib})
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "STATIC_LIBRARY")
    # A static library's users link its private dependencies too.
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES
                 "$<LINK_ONLY:${lib}>")
  endif()
endfunction()

# Plugin mode: flags on the sources (or the whole target).
macro(_sonde_instrument_plugin)
  if(NOT SONDE_PLUGIN)
    message(FATAL_ERROR "${_fn}: this sonde has no compiler plugin (it was "
                        "built without Clang); use MODE rewrite")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR
     NOT CMAKE_CXX_COMPILER_VERSION MATCHES "^${SONDE_PLUGIN_CLANG_MAJOR}\\.")
    message(FATAL_ERROR
      "${_fn} MODE plugin: the sonde plugin loads only into clang "
      "${SONDE_PLUGIN_CLANG_MAJOR}, but this build compiles C++ with "
      "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} "
      "(${CMAKE_CXX_COMPILER}). Configure with "
      "-DCMAKE_CXX_COMPILER=clang++-${SONDE_PLUGIN_CLANG_MAJOR}, or use "
      "MODE rewrite, which works with any compiler.")
  endif()
  # The runtime headers are also included on the command line, although
  # the plugin includes the ones a plan needs itself: so they are real
  # dependencies of every object (in -MD files, so a changed header rebuilds
  # them, and in ccache's key, so a cache never serves an object compiled
  # against another header), and -save-temps' .ii files contain them (a .ii
  # can include nothing). The light header chosen above includes sonde.h
  # (torch.h also includes containers.h), as in rewrite mode. Joined, so CMake cannot
  # merge a repeated -include.
  set(_flags "-fplugin=${SONDE_PLUGIN}" "-fplugin-arg-sonde-spec=${_spec}"
             "-fplugin-arg-sonde-spec-sha256=${_hash}"
             "-fplugin-arg-sonde-match-dir=${_matchdir}"
             "-include${_sonde_more_h}")
  if(ARG_SOURCES)
    set_property(SOURCE ${_sources} TARGET_DIRECTORY ${ARG_TARGET}
                 APPEND PROPERTY COMPILE_OPTIONS ${_flags})
  else()
    # Every C++ source of the target: flags on the target, not on the
    # sources, whose properties another target of the directory (the same
    # program built without probes) would share.
    target_compile_options(${ARG_TARGET} PRIVATE
                           "$<$<COMPILE_LANGUAGE:CXX>:${_flags}>")
  endif()
  # The objects depend on the plugin file: a new plugin rebuilds them, and
  # inside the sonde project Ninja links the plugin before compiling through
  # it (add_dependencies alone orders only the links, so a compile could
  # load a half-written plugin: "file too short").
  if(TARGET sonde_plugin)
    add_dependencies(${ARG_TARGET} sonde_plugin)
  endif()
  if(NOT SONDE_PLUGIN MATCHES "\\$<")
    set_property(SOURCE ${_sources} TARGET_DIRECTORY ${ARG_TARGET}
                 APPEND PROPERTY OBJECT_DEPENDS "${SONDE_PLUGIN}")
  endif()
endmacro()

# Rewrite mode: one custom command per source writes its instrumented copy
# under <binary dir>/sonde/<target>/, and the target compiles the copy.
macro(_sonde_instrument_rewrite)
  if(NOT SONDE_REWRITE)
    message(FATAL_ERROR "${_fn}: this sonde has no sonde-rewrite (it was "
                        "built without Clang)")
  endif()
  if(NOT _srcdir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "${_fn} MODE rewrite: call sonde_instrument() in the "
                        "directory that creates the target (${_srcdir})")
  endif()
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/sonde/${ARG_TARGET}")
  set(_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/SondeRewriteSource.cmake")
  # Inside the sonde project the tool is a target; installed, a file.
  if(TARGET sonde-rewrite)
    set(_tool sonde-rewrite)
  else()
    set(_tool "${SONDE_REWRITE}")
  endif()

  # The flags sonde-rewrite parses each source with: the target's own
  # (usage requirements of what it links included), one per line.
  set(_inc "$<TARGET_PROPERTY:${ARG_TARGET},INCLUDE_DIRECTORIES>")
  set(_def "$<TARGET_PROPERTY:${ARG_TARGET},COMPILE_DEFINITIONS>")
  set(_opt "$<TARGET_PROPERTY:${ARG_TARGET},COMPILE_OPTIONS>")
  set(_std "$<TARGET_PROPERTY:${ARG_TARGET},CXX_STANDARD>")
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
  separate_arguments(_global NATIVE_COMMAND
                     "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_bt}}")
  list(JOIN _global "\n" _global)
  set(_flagsfile "${_dir}/flags-$<CONFIG>.txt")
  file(GENERATE OUTPUT "${_flagsfile}" CONTENT
    "${_global}\n$<$<BOOL:${_std}>:-std=c++${_std}\n>$<$<BOOL:${_inc}>:-I$<JOIN:${_inc},\n-I>\n>$<$<BOOL:${_def}>:-D$<JOIN:${_def},\n-D>\n>$<$<BOOL:${_opt}>:$<JOIN:${_opt},\n>\n>")

  get_target_property(_all ${ARG_TARGET} SOURCES)
  set(_new "")
  foreach(_s IN LISTS _all)
    set(_abs "")
    if(NOT _s MATCHES "\\$<")
      get_filename_component(_abs "${_s}" ABSOLUTE BASE_DIR "${_srcdir}")
    endif()
    if(NOT _abs OR NOT _abs IN_LIST _sources)
      list(APPEND _new "${_s}")
      continue()
    endif()
    file(RELATIVE_PATH _rel "${CMAKE_SOURCE_DIR}" "${_abs}")
    if(_rel MATCHES "^\\.\\./")
      string(SHA1 _h "${_abs}")
      string(SUBSTRING "${_h}" 0 8 _h)
      get_filename_component(_name "${_abs}" NAME)
      set(_rel "outside-${_h}/${_name}")
    endif()
    set(_out "${_dir}/${_rel}")
    get_filename_component(_absdir "${_abs}" DIRECTORY)
    add_custom_command(
      OUTPUT "${_out}"
      COMMAND "${CMAKE_COMMAND}" "-DREWRITE=${SONDE_REWRITE}"
              "-DSPEC=${_spec}" "-DSOURCE=${_abs}" "-DOUTPUT=${_out}"
              "-DFLAGS_FILE=${_flagsfile}" "-DMATCH_DIR=${_matchdir}"
              -P "${_script}"
      DEPENDS "${_abs}" "${_spec}" "${_script}" ${_tool}
      COMMENT "sonde: instrumenting ${_rel}"
      VERBATIM)
    # The copy includes the runtime header (insertions add no line, so no
    # #include is inserted) and finds the original's quoted includes.
    set_source_files_properties("${_out}" PROPERTIES
      GENERATED TRUE
      COMPILE_OPTIONS "-include;sonde/sonde.h;-include;${_sonde_more_h};-iquote;${_absdir}")
    list(APPEND _new "${_out}")
  endforeach()
  set_property(TARGET ${ARG_TARGET} PROPERTY SOURCES ${_new})

  # ccache hashes the path of the file it compiles, and the copies live in
  # the build tree: a second build tree got no hit. With the build tree as
  # ccache's base_dir the copies' paths are hashed relative to it (the same
  # in every tree); the originals, outside it, keep their absolute paths.
  # A base_dir the user set (CCACHE_BASEDIR at configure time) is kept.
  get_target_property(_launcher ${ARG_TARGET} CXX_COMPILER_LAUNCHER)
  if(_launcher MATCHES "(^|/)ccache$" AND NOT DEFINED ENV{CCACHE_BASEDIR})
    set_property(TARGET ${ARG_TARGET} PROPERTY CXX_COMPILER_LAUNCHER
                 "${CMAKE_COMMAND}" -E env "CCACHE_BASEDIR=${CMAKE_BINARY_DIR}"
                 ${_launcher})
  endif()
endmacro()
