#include "vm/term_refs.hpp"

#include <atomic>

namespace beam {

namespace {
std::atomic<uint64_t> ref_counter{1};
}

uint64_t next_ref_number() { return ref_counter.fetch_add(1, std::memory_order_relaxed); }

Term make_ref_from_number(TermAllocator& a, uint64_t n) {
    Term* hp = a.alloc(REF_WORDS);
    hp[0] = make_header(Sub::Ref, 3);
    hp[1] = Term{n & 0x3FFFF};
    hp[2] = Term{(n >> 18) & 0xFFFFFFFF};
    hp[3] = Term{n >> 50};
    return make_boxed(hp);
}

}  // namespace beam
