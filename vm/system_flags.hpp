// The VM-wide settings erlang:system_flag/2 changes (bifs/system_flags.cpp), read where
// they take effect: the heap options every new process starts with (bifs/system_processes.cpp,
// vm/spawn.cpp) and the depth of stack traces (vm/exception.cpp).
//
// One set per VM (VM::sys_flags): VMs embedded in one host program (docs/embedding.md) each
// have their own. Each field is atomic, as system_flag/2 may run on any scheduler
// while others spawn or raise; max_heap_size, three values that change together, takes a lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "vm/gc_internal.hpp"
#include "vm/process.hpp"

namespace beam {

struct SystemFlags {
    // Heap options of new processes (OTP's H_MIN_SIZE, BIN_VH_MIN_SIZE, erts_max_gen_gcs,
    // H_MAX_SIZE/H_MAX_FLAGS).
    std::atomic<size_t> min_heap_size{gc::DEFAULT_MIN_HEAP};
    std::atomic<size_t> min_bin_vheap_size{DEFAULT_MIN_BIN_VHEAP};
    std::atomic<uint32_t> fullsweep_after{DEFAULT_FULLSWEEP_AFTER};
    MaxHeapSize max_heap_size() const {
        std::lock_guard lock(max_heap_mutex_);
        return max_heap_;
    }
    MaxHeapSize exchange_max_heap_size(MaxHeapSize m) {
        std::lock_guard lock(max_heap_mutex_);
        MaxHeapSize old = max_heap_;
        max_heap_ = m;
        return old;
    }

    // Frames kept in a stack trace (erts_backtrace_depth; at most MAX_BACKTRACE_DEPTH).
    static constexpr uint32_t MAX_BACKTRACE_DEPTH = 64;  // erts' MAX_BACKTRACE_SIZE
    std::atomic<uint32_t> backtrace_depth{8};

    // Settings beamvm keeps and reports but that have nothing to act on yet (no tracing, no
    // microstate accounting): system_flag/2 returns the previous value, as erl.
    // (scheduler_wall_time is the schedulers' own: Schedulers::set_wall_time.)
    std::atomic<bool> microstate_accounting{false};
    std::atomic<uint32_t> trace_control_word{0};
    std::atomic<uint64_t> outstanding_system_requests_limit{0};  // 0: not set, 2 per scheduler
    std::atomic<Word> system_logger{0};                          // 0: not set (the atom logger)

private:
    mutable std::mutex max_heap_mutex_;
    MaxHeapSize max_heap_;
};

class VM;
// The VM's settings (VM::sys_flags).
SystemFlags& system_flags(VM& vm);

}  // namespace beam
