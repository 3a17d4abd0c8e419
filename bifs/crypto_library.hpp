// libcrypto (OpenSSL 3) is loaded on the first crypto call, not at start-up: linked as a
// dependency, the library cost every beamvm run about 1.4 MB of resident memory (its code
// and relocated data), although most programs never call crypto (docs/benchmarks.md,
// "Issue 11: quick start-up"). bifs/crypto_library.cpp defines the OpenSSL functions crypto's
// natives call, each forwarding to the library opened with dlopen; the natives themselves
// call OpenSSL as if it were linked.
#pragma once

#include <string>

namespace beam {

// Opens libcrypto.so.3 and looks up every function the natives use (once; thread-safe).
// Returns the empty string when it is usable, else why not, naming the library or the
// missing function. erlang:load_nif/2 gives this to crypto's on_load as {load_failed, Text},
// as erl does when its crypto NIF cannot be loaded.
const std::string& crypto_library_error();

}  // namespace beam
