// Software prefetch for walks over a term's tree (hashing, =:=, encoding). A term built moments
// ago lies scattered over the young heap, among the garbage made with it, so a walk that
// follows its pointers one at a time waits on a cache miss at nearly every cell and object
// (a third of make_hash2's samples in bench/real/real_parse sat on the load of a list cell's
// head, a quarter on an object's header). A walk that puts a subterm aside for later starts
// loading it at once, so the miss overlaps the work done in between.
#pragma once

#include "vm/term.hpp"

namespace beam {

// Starts loading the cell or object `t` points at, if it points at one.
inline void prefetch_target(Term t) {
    Word tg = t.raw & tag::primary_mask;
    if (tg == tag::list || tg == tag::boxed) __builtin_prefetch(reinterpret_cast<const void*>(t.raw & ~tag::primary_mask));
}

}  // namespace beam
