# The NIF library of tests/conformance/nif_api_extra.erl: our own C, compiled against the
# erl_nif.h of the installed OTP (Debian's erlang-dev) so that erl and beamvm load the same
# .so. It goes to CONFORMANCE_EBIN/nif/, where the test finds it beside its own .beam.
find_path(API_EXTRA_NIF_INCLUDE erl_nif.h PATHS /usr/lib/erlang/usr/include NO_DEFAULT_PATH)
if(NOT API_EXTRA_NIF_INCLUDE)
  message(WARNING "erl_nif.h not found (install erlang-dev): nif_api_extra's library not built")
  return()
endif()
enable_language(C)
add_library(niftest_api_extra MODULE ${CMAKE_CURRENT_LIST_DIR}/api_extra_nif.c)
target_include_directories(niftest_api_extra SYSTEM PRIVATE ${API_EXTRA_NIF_INCLUDE})
# A test fixture, not part of the VM: none of the VM's (profile-guided) options.
set_target_properties(niftest_api_extra PROPERTIES
                      PREFIX "" OUTPUT_NAME api_extra_nif C_STANDARD 11
                      COMPILE_OPTIONS "-O2;-Wall;-Wextra;-Wno-unused-parameter;-fvisibility=hidden"
                      LINK_OPTIONS ""
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/conformance/ebin/nif)
# enif_* resolve against the VM executable when the library is opened.
target_link_libraries(niftest_api_extra PRIVATE pthread)
