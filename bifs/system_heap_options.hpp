// The heap options shared by spawn_opt/4,5 and process_flag/2 (min_heap_size,
// min_bin_vheap_size, max_heap_size, fullsweep_after, message_queue_data): their accepted
// values as OTP 25 checks them, and the terms process_info reports for them.
#pragma once

#include <cstdint>

#include "vm/process.hpp"

namespace beam {

// min_heap_size / min_bin_vheap_size: a small integer >= 0, rounded up to OTP's heap size
// series and to at least `floor`. False: badarg.
bool parse_heap_option(Term v, size_t floor, size_t* out);

// max_heap_size: a size in words, or a map with `size` (required) and the booleans `kill` and
// `error_logger` (absent: true, OTP's system defaults); other keys are ignored, as OTP does.
// The caller also checks it against min_heap_size. False: badarg.
bool parse_max_heap_size(Term v, MaxHeapSize* out);
// A size of 0 means no limit; any other must not be below the (rounded) min_heap_size.
inline bool max_heap_fits(const MaxHeapSize& m, size_t min_heap) { return m.size == 0 || m.size >= min_heap; }
// #{error_logger => B, kill => B, size => N}, as process_info and process_flag return it.
Term max_heap_size_term(Process* p, const MaxHeapSize& m);

// fullsweep_after: a small integer >= 0; OTP keeps its low 16 bits. False: badarg.
bool parse_fullsweep_after(Term v, uint32_t* out);

// message_queue_data: on_heap | off_heap. False: badarg.
bool parse_message_queue_data(Term v, bool* off_heap);
Term message_queue_data_term(bool off_heap);

// process_info(P, garbage_collection): OTP's keys in OTP's order.
Term garbage_collection_info(Process* p, const Process* q);

}  // namespace beam
