// beamvm's one way out for an internal fatal error (a broken invariant, not an Erlang error):
// the message on stderr, erl_crash.dump with the message as its slogan once the dump writer
// has registered itself (crashdump/crash_dump.hpp), then abort(), as erts' ERTS_ERROR_EXIT
// does (erl_init.c: erl_error, erl_crash_dump_v, abort). Header-only: the term library
// (vm/map_hamt.cpp) calls it and links without the runtime.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace beam {

using FatalDumpHook = void (*)(const char* slogan);
inline std::atomic<FatalDumpHook> fatal_dump_hook{nullptr};

// erts' ERTS_DUMP_EXIT for a limit it cannot go past (erl_init.c, erts_exit): the slogan on
// stderr, erl_crash.dump with it, exit status 1 (no abort, no core).
[[noreturn]] inline void dump_exit(const char* slogan) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", slogan);
    if (FatalDumpHook dump = fatal_dump_hook.load(std::memory_order_acquire)) dump(slogan);
    std::fflush(nullptr);
    std::_Exit(1);
}

// An allocation that cannot be met (erl_alloc.c, erts_alloc_n_enomem), e.g.
//   binary_alloc: Cannot allocate 35184372088832 bytes of memory (of type "binary").
[[noreturn]] inline void out_of_memory(const char* allocator, const char* type, size_t bytes) {
    char slogan[200];
    std::snprintf(slogan, sizeof slogan, "%s: Cannot allocate %zu bytes of memory (of type \"%s\").", allocator,
                  bytes, type);
    dump_exit(slogan);
}

[[noreturn]] inline void fatal_error(const char* message) {
    std::fprintf(stderr, "beamvm: %s\n", message);
    if (FatalDumpHook dump = fatal_dump_hook.load(std::memory_order_acquire)) dump(message);
    std::abort();
}

}  // namespace beam
