# The MPI test (tests/CMakeLists.txt): keli simulate --mpi on 3 ranks of this machine prints the
# bytes of one process and writes the same records; a rank that fails is reported with the games
# it held and no summary. cmake -DMPIRUN=mpirun -DKELI=build/keli -DGAME=g.keli -DWORK=dir -P compare.cmake
set(mpirun ${MPIRUN} --oversubscribe --allow-run-as-root -np 3)
set(args simulate ${GAME} -n 90 --seed 7 --json)
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${mpirun} ${KELI} ${args} --mpi --records ${WORK}/mpi.jsonl
                OUTPUT_VARIABLE mpi_out ERROR_VARIABLE mpi_err RESULT_VARIABLE mpi_rc)
execute_process(COMMAND ${KELI} ${args} --records ${WORK}/one.jsonl
                OUTPUT_VARIABLE one_out ERROR_VARIABLE one_err RESULT_VARIABLE one_rc)
if(NOT mpi_rc EQUAL 0 OR NOT one_rc EQUAL 0)
  message(FATAL_ERROR "status ${mpi_rc} (mpi) and ${one_rc} (one process)\n${mpi_err}\n${one_err}")
endif()
if(NOT mpi_out STREQUAL one_out OR mpi_out STREQUAL "")
  message(FATAL_ERROR "the outputs differ:\n--- mpirun -np 3:\n${mpi_out}\n--- one process:\n${one_out}")
endif()
file(READ ${WORK}/mpi.jsonl mpi_records)
file(READ ${WORK}/one.jsonl one_records)
if(NOT mpi_records STREQUAL one_records)
  message(FATAL_ERROR "the records differ: ${WORK}/mpi.jsonl and ${WORK}/one.jsonl")
endif()
message(STATUS "mpirun -np 3 and one process: the same ${args} output and records")

execute_process(COMMAND ${mpirun} -x KELI_MPI_FAIL_RANK=2 ${KELI} ${args} --mpi
                OUTPUT_VARIABLE fail_out ERROR_VARIABLE fail_err RESULT_VARIABLE fail_rc)
if(fail_rc EQUAL 0 OR NOT fail_out STREQUAL "" OR NOT fail_err MATCHES "rank 2 of 3 failed: [^\n]*; it held games? [0-9]+")
  message(FATAL_ERROR "a failing rank was not reported (status ${fail_rc}):\n${fail_out}\n${fail_err}")
endif()
message(STATUS "a failing rank is reported: ${fail_err}")
