// References: [hdr Ref arity=3][id0][id1][id2], made from one process-wide 64-bit counter.
// id0 holds 18 bits, id1 32 bits, id2 the rest (id2 is the most significant, compared and
// printed first, as OTP's #Ref<0.id2.id1.id0>). Tables that must not hold heap terms (monitors,
// timers) keep the counter value instead.
#pragma once

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

uint64_t next_ref_number();
Term make_ref_from_number(TermAllocator& a, uint64_t n);
inline Term make_new_ref(TermAllocator& a) { return make_ref_from_number(a, next_ref_number()); }
// The counter value of a local reference made by make_ref_from_number.
inline uint64_t ref_number(Term ref) {
    const Term* w = boxed_ptr(ref);
    return w[1].raw | (w[2].raw << 18) | (w[3].raw << 50);
}

}  // namespace beam
