# cmake -DLINT=<mlperf-lint> -DSRC=<file> -DOUT=<copy> -DCHECK=<check> -DFLAGS=<a|b|c> -P ApplyFixes.cmake
# Copies SRC to OUT and applies the check's fixes to the copy.
# The fixes go to a private copy renamed into place, so two builds running
# this step at once never fix the same file twice.
string(RANDOM LENGTH 8 tag)
get_filename_component(dir ${OUT} DIRECTORY)
get_filename_component(name ${OUT} NAME)
set(tmp ${dir}/.${tag}.${name})
configure_file(${SRC} ${tmp} COPYONLY)
string(REPLACE "|" ";" FLAGS "${FLAGS}")
execute_process(COMMAND ${LINT} --quiet --fix --checks=-*,${CHECK} ${tmp} -- ${FLAGS}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc GREATER 1)
  file(REMOVE ${tmp})
  message(FATAL_ERROR "mlperf-lint could not lint ${SRC}:\n${err}")
endif()
# An unchanged result leaves OUT (and its time) alone: the build's restat then
# skips compiling and linking the fixed program again.
if(EXISTS ${OUT})
  file(SHA256 ${tmp} new_hash)
  file(SHA256 ${OUT} old_hash)
  if(new_hash STREQUAL old_hash)
    file(REMOVE ${tmp})
    return()
  endif()
endif()
file(RENAME ${tmp} ${OUT})
