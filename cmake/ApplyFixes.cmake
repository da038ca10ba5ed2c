# cmake -DLINT=<mlperf-lint> -DSRC=<file> -DOUT=<copy> -DCHECK=<check> -DFLAGS=<a|b|c> -P ApplyFixes.cmake
# Copies SRC to OUT and applies the check's fixes to the copy.
configure_file(${SRC} ${OUT} COPYONLY)
string(REPLACE "|" ";" FLAGS "${FLAGS}")
execute_process(COMMAND ${LINT} --quiet --fix --checks=-*,${CHECK} ${OUT} -- ${FLAGS}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc GREATER 1)
  message(FATAL_ERROR "mlperf-lint could not lint ${SRC}:\n${err}")
endif()
