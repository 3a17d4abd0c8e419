// What erl's emulator flags (+P, +Q, +t, +A, +R, +C, +c, +K, +zdbbl, +spp, +sbt, +fn*, +pc,
// +rg, +e...) set, as erlang:system_info/1, file:native_name_encoding/0 and
// io:printable_range/0 report them. tools/emu_flags.cpp fills it from the command line before
// the VM starts; nothing changes it afterwards. Defaults are erl's without flags.
#pragma once

#include <cstdint>
#include <string>

namespace beam {

struct EmulatorOptions {
    int64_t busy_wait_ns = 50'000;           // +sbwt: an idle scheduler's longest spin (scheduler/busy_wait.hpp)
    // +swt: the backlog, in reductions run while others waited, at which a busy scheduler
    // wakes a sleeping one (scheduler/scheduler.cpp, count_backlog); erts' values, medium
    // 10 x 4,000 reductions by default.
    int64_t wakeup_other_limit = 40'000;
    int64_t process_limit = 262144;          // +P, rounded up to a power of two as erts does
    int64_t port_limit = 65536;              // +Q, likewise
    int64_t atom_limit = 1 << 20;            // +t (beamvm's table holds MAX_ATOMS at most)
    int64_t thread_pool_size = 1;            // +A (erts 25 always has at least one async thread)
    int64_t compat_rel = 25;                 // +R
    std::string time_warp_mode = "no_time_warp";  // +C
    bool time_correction = true;             // +c
    bool kernel_poll = true;                 // +K (erts 25 always polls the kernel's way)
    int64_t dist_buf_busy_limit = 1024 * 1024;  // +zdbbl, in bytes
    bool port_parallelism = false;           // +spp
    std::string scheduler_bind_type = "unbound";  // +sbt, as system_info names the type
    bool filename_utf8 = true;               // +fnl: false (file:native_name_encoding/0)
    char filename_warning = 'w';             // +fnu's/+fna's w, i or e: a name not in UTF-8 gives
                                             // {error, warning | ignore | error}
    bool printable_unicode = false;          // +pc unicode (io:printable_range/0)
    bool ets_always_compress = false;        // +ec
    bool ets_realloc_moves = false;          // +r
    int64_t modified_timing_level = -1;      // +T; -1: not set (system_info says undefined)
};

}  // namespace beam
