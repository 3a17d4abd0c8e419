// max_heap_size enforcement (spawn_opt / process_flag option): checked after each collection,
// as OTP does, against the heap blocks the process holds once the collection is done.
#include <cstdio>

#include "vm/gc_options.hpp"
#include "vm/term_print.hpp"

namespace beam::gc {

namespace {

// As erts, to the system logger (GcHooks::max_heap_report, installed by the runtime: with OTP
// booted, logger formats it as on erl). Without one (beamvm's quick start-up, unit tests), to
// stderr like the other process reports (scheduler/signals.cpp), without the timestamp or the
// GC info list.
void report_max_heap(Process* p, size_t total) {
    if (report_max_heap_to_runtime(p, total)) return;
    std::fflush(nullptr);  // keep the order with what the process printed before
    std::fprintf(stderr,
                 "=ERROR REPORT====\n"
                 "     Process:            %s \n"
                 "     Context:            maximum heap size reached\n"
                 "     Max Heap Size:      %zu\n"
                 "     Total Heap Size:    %zu\n"
                 "     Kill:               %s\n"
                 "     Error Logger:       true\n"
                 "     Message Queue Len:  %zu\n\n",
                 display_string(p->pid).c_str(), p->max_heap.size, total, p->max_heap.kill ? "true" : "false",
                 p->mailbox_len.load(std::memory_order_relaxed));
}

}  // namespace

void check_max_heap(Process* p) {
    const MaxHeapSize& m = p->max_heap;
    if (m.size == 0 || p->sched.exit_pending) return;
    size_t total = total_heap_words(p);
    if (total <= m.size) return;
    if (m.error_logger) report_max_heap(p, total);
    if (m.kill) {
        p->sched.exit_pending = true;
        p->sched.exit_reason = am::killed;
    }
}

}  // namespace beam::gc
