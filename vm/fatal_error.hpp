// beamvm's one way out for an internal fatal error (a broken invariant, not an Erlang error):
// the message on stderr, erl_crash.dump with the message as its slogan once the dump writer
// has registered itself (crashdump/crash_dump.hpp), then abort(), as erts' ERTS_ERROR_EXIT
// does (erl_init.c: erl_error, erl_crash_dump_v, abort). Header-only: the term library
// (vm/map_hamt.cpp) calls it and links without the runtime.
#pragma once

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace beam {

using FatalDumpHook = void (*)(const char* slogan);
inline std::atomic<FatalDumpHook> fatal_dump_hook{nullptr};

[[noreturn]] inline void fatal_error(const char* message) {
    std::fprintf(stderr, "beamvm: %s\n", message);
    if (FatalDumpHook dump = fatal_dump_hook.load(std::memory_order_acquire)) dump(message);
    std::abort();
}

}  // namespace beam
