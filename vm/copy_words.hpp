// Copying a run of heap words (an object to another heap, a tuple to a new one).
#pragma once

#include <cstring>

#include "vm/term.hpp"

namespace beam {

// The C library's memcpy, called through a pointer the compiler cannot see through. With
// profile feedback (tools/pgo.sh) GCC expanded a memcpy of a run-time size inline as
// `rep movsq` for the size it had seen most, which starts slowly: setelement/3 on a tuple of
// 41 took 55-76 ms per 2 million calls in the PGO build against 44-56 ms without PGO (the
// library's vector copy).
inline void* (*volatile library_memcpy)(void*, const void*, size_t) = &std::memcpy;

// Most objects are a few words (tuples, boxed floats, small bignums): a call to memcpy per
// object cost more than the copy (memmove was ~6% of tests/stress/gc_10gb.erl's run), so
// small ones are copied by a loop, kept a loop (GCC would turn it into that call). Larger
// ones take memcpy: GCC left the loop a word at a time, and setelement/3 on a tuple of 40
// took twice OTP's time per call that way.
inline void copy_words(Term* to, const Term* from, size_t n) {
    if (n > 8) {
        library_memcpy(static_cast<void*>(to), from, n * sizeof(Term));
        return;
    }
#pragma GCC unroll 1
    for (size_t i = 0; i < n; ++i) {
        to[i] = from[i];
        asm("" ::: "memory");  // keeps -ftree-loop-distribute-patterns from making it a memcpy call
    }
}

}  // namespace beam
