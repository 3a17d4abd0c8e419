/* A shared library without nif_init, for the bad_lib error of erlang:load_nif/2
 * (tests/conformance/nif_load.erl). */
int nif_no_init_marker(void) { return 42; }
