// Why: a parallel map of 32 processes that each grow a heap of a few MB (bench/real/real_pmap)
// mapped and unmapped its heap blocks of 256 KB to 4 MB at every collection, and paid a page
// fault for every 4 KB of each new mapping (42,500 faults, a fifth of its time in the kernel).
// From mimalloc, whose freed blocks serve the next process's collection, it took 28,700 faults
// and ran 20% faster. mimalloc returns freed pages to the system 25 ms after they are freed
// by default, which made OTP's compiler (bench/real/real_compile) fault its heaps in again
// and again (115,000 faults against 15,800 with mapped blocks); a second's delay keeps them
// for the next collection (23,000 faults) and still gives memory back after a peak.
#include "tools/allocator_setup.hpp"

#include <cstdlib>

#include "vm/gc.hpp"

#if BEAMVM_MIMALLOC
#include <mimalloc.h>
#endif

namespace beam {

void setup_allocator() {
#if BEAMVM_MIMALLOC
    // The environment (MIMALLOC_DECOMMIT_DELAY and so on) still has the last word.
    constexpr long DECOMMIT_DELAY_MS = 1000;
    if (!std::getenv("MIMALLOC_DECOMMIT_DELAY")) mi_option_set(mi_option_decommit_delay, DECOMMIT_DELAY_MS);
    if (!std::getenv("MIMALLOC_SEGMENT_DECOMMIT_DELAY"))
        mi_option_set(mi_option_segment_decommit_delay, DECOMMIT_DELAY_MS);
    gc_heap_blocks_from_malloc(true);
#endif
}

}  // namespace beam
