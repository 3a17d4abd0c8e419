// Per-process generational copying garbage collection (design notes §2).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "vm/process.hpp"

namespace beam {

// Collects `p`. Roots: x[0..live), the stack (stop..hend), the process dictionary, saved
// exception terms (fvalue, fargs, ftrace, ftop), group_leader and the mailbox terms. Heap fragments are merged. On return at least
// `need` + S_RESERVED words are free between htop and stop (the block grows if needed).
// Terms outside the young heap, old heap and fragments (literals) are left where they are.
void garbage_collect(Process* p, Term* x, unsigned live, size_t need);

// A full-sweep collection (young and old generations into a fresh young heap).
void garbage_collect_full(Process* p, Term* x, unsigned live, size_t need);
// erlang:hibernate/3: a full sweep into a heap just big enough for what is live.
void garbage_collect_hibernate(Process* p, Term* x, unsigned live);

// A full sweep that also copies whatever the process reaches in `area` onto its heap: the
// literals of a module version being purged, which are freed afterwards (design notes §5).
void garbage_collect_literals(Process* p, Term* x, unsigned live, const LiteralArea& area);

// What the runtime has the GC report; the reporters live above this library (vm/vm.cpp
// installs them once when a VM is made; unit tests of the GC run without).
struct GcHooks {
    // system_monitor's long_gc and large_heap (vm/system_monitor.cpp): `sysmon_wants` answers,
    // before a collection, which reports are on (0: none, and nothing else is done);
    // `sysmon_report` is called after it with the start time (monotonic ns, or 0 if long_gc
    // was not on).
    uint32_t (*sysmon_wants)(const Process* p) = nullptr;
    void (*sysmon_report)(Process* p, int64_t start_ns) = nullptr;
    // The garbage_collection trace event `what` (gc_minor_start, ...) with {wordsize, Words}
    // (the words asked for at a start, the words reclaimed at an end) before the info list
    // (vm/trace.cpp); called only for a process traced for garbage_collection.
    void (*trace)(Process* p, const char* what, size_t words) = nullptr;
    // max_heap_size's error report for p, whose heap holds `total` words, sent where erts sends
    // it (the system logger); false when it could not be, and the GC prints it itself.
    bool (*max_heap_report)(Process* p, size_t total) = nullptr;
};
void set_gc_hooks(const GcHooks& hooks);

// process_info(P, garbage_collection_info): OTP's keys in its order, sizes in words (vm/gc_info.cpp).
Term gc_info_list(TermAllocator& a, const Process* q);
// Words of the off-heap binaries q references (OTP's binary virtual heap).
size_t gc_bin_vheap_words(const Process* q);

// Totals over every process of the OS process, for statistics(garbage_collection):
// {collections, words reclaimed, 0}. Words reclaimed by one collection are the words in use in
// the areas it collected minus the words it copied (OTP: erl_gc.c, reclaimed_now).
struct GcTotals {
    std::atomic<uint64_t> collections{0};
    std::atomic<uint64_t> words_reclaimed{0};
};
GcTotals& gc_totals();

// Heap blocks under 4 MB come from malloc rather than each from its own mapping. Only for a
// malloc that keeps freed memory for reuse (the beamvm executable's mimalloc, see
// tools/allocator_setup.cpp); glibc's brk heap fragmented under such blocks.
void gc_heap_blocks_from_malloc(bool on);

}  // namespace beam
