# tests/nif/dirty_nif_test.c, the NIF library of the dirty scheduling tests, built once per
# test module that loads it (tests/conformance/nif_dirty*.erl; NIF_MODULE names the module)
# against the installed OTP's erl_nif.h, into CONFORMANCE_EBIN/nif/ beside the test's .beam.
# A test fixture, not part of the VM: no profile-guided options.
find_path(DIRTY_NIF_INCLUDE_DIR erl_nif.h PATHS /usr/lib/erlang/usr/include NO_DEFAULT_PATH)
if(NOT DIRTY_NIF_INCLUDE_DIR)
  message(WARNING "erl_nif.h not found (erlang-dev): the dirty NIF test library is not built")
  return()
endif()
enable_language(C)
foreach(mod nif_dirty nif_dirty_signals nif_dirty_sched)
  add_library(dirty_nif_test_${mod} MODULE ${CMAKE_CURRENT_LIST_DIR}/dirty_nif_test.c)
  target_include_directories(dirty_nif_test_${mod} SYSTEM PRIVATE ${DIRTY_NIF_INCLUDE_DIR})
  target_compile_definitions(dirty_nif_test_${mod} PRIVATE NIF_MODULE=${mod})
  set_target_properties(dirty_nif_test_${mod} PROPERTIES
                        PREFIX "" SUFFIX ".so" OUTPUT_NAME ${mod} C_STANDARD 11
                        COMPILE_OPTIONS "-O2;-Wall;-Wextra;-Wno-unused-parameter" LINK_OPTIONS ""
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/conformance/ebin/nif)
  list(APPEND DIRTY_NIF_TEST_LIBS dirty_nif_test_${mod})
endforeach()
add_custom_target(dirty_nif_test_libs ALL DEPENDS ${DIRTY_NIF_TEST_LIBS})
