// Heap options the collector honours (spawn_opt / process_flag): OTP's heap size series for
// min_heap_size and min_bin_vheap_size, and max_heap_size enforcement. Separate from gc.hpp,
// whose users (the unit tests among them) need no `gc` namespace in scope.
#pragma once

#include <cstddef>
#include <vector>

#include "vm/process.hpp"

namespace beam {

namespace gc {

// The largest heap OTP's series allows (2^53 bytes); larger heap options are badarg.
inline constexpr size_t MAX_HEAP_WORDS = (size_t(1) << 53) / sizeof(Term);

// OTP's rounding of min_heap_size / min_bin_vheap_size: the smallest step of its heap size
// series holding `words`, and not below `floor`.
size_t round_heap_option(size_t words, size_t floor);

// The whole series, smallest first (erlang:system_info(heap_sizes)).
const std::vector<size_t>& heap_size_series();

// What max_heap_size is compared with: young and old heap blocks (the stack shares the young
// block) plus heap fragments, in words.
size_t total_heap_words(const Process* p);

// Called after each collection: when p's heap exceeds its max_heap_size, prints an error
// report (error_logger) and marks the process to die with reason `killed` (kill): the GC cannot
// end it, so it sets p->sched.exit_pending / exit_reason, which the interpreter acts on with
// RunStatus::Killed right after the collection, as loop_rec does for exit signals.
void check_max_heap(Process* p);
// Through GcHooks::max_heap_report when the runtime installed one; false otherwise.
bool report_max_heap_to_runtime(Process* p, size_t total);

}  // namespace gc

}  // namespace beam
