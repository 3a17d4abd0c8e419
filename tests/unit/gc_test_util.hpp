// Term builders and stack helpers for the GC tests. They write objects with raw headers on a
// Process through Process::alloc, so the tests do not depend on the runtime.
#pragma once

#include <catch2/catch.hpp>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <vector>

#include "vm/gc.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam::gctest {

inline std::unique_ptr<Process> new_process(size_t min_heap = 233) {
    return std::make_unique<Process>(nullptr, nullptr, make_local_pid(1), min_heap);
}

inline Term tuple(Process& p, std::initializer_list<Term> elems) {
    Term* hp = p.alloc(1 + elems.size());
    hp[0] = make_header(Sub::Tuple, elems.size());
    size_t i = 1;
    for (Term e : elems) hp[i++] = e;
    return make_boxed(hp);
}

inline Term cons(Process& p, Term h, Term t) { return cons_at(p.alloc(2), h, t); }

// [from, from+1, ..., to] built back to front, as list construction in Erlang does.
inline Term int_list(Process& p, SWord from, SWord to) {
    Term l = NIL;
    for (SWord i = to; i >= from; --i) l = cons(p, make_small(i), l);
    return l;
}

inline Term flt(Process& p, double d) { return make_float_at(p.alloc(FLOAT_WORDS), d); }

// A bignum from raw limbs (least significant first), built by hand, not by bignum.cpp.
inline Term big(Process& p, std::initializer_list<uint64_t> limbs, bool negative = false) {
    Term* hp = p.alloc(1 + limbs.size());
    hp[0] = make_header(negative ? Sub::NegBig : Sub::PosBig, limbs.size());
    size_t i = 1;
    for (uint64_t l : limbs) hp[i++] = Term{l};
    return make_boxed(hp);
}

// Checks `l` is exactly [from..to] (iteratively; lists here can be long).
inline bool is_int_list(Term l, SWord from, SWord to) {
    for (SWord i = from; i <= to; ++i) {
        if (!is_list(l) || head(l) != make_small(i)) return false;
        l = tail(l);
    }
    return is_nil(l);
}

inline bool in_range(Term t, const Term* lo, const Term* hi) {
    const Term* q = is_list(t) ? list_ptr(t) : boxed_ptr(t);
    return q >= lo && q < hi;
}
inline bool in_young(const Process& p, Term t) { return in_range(t, p.heap, p.htop); }
inline bool in_old(const Process& p, Term t) { return p.old_heap && in_range(t, p.old_heap, p.old_htop); }

// A fake code address standing in for a return address (word aligned: tag bits 00).
inline const Word* fake_cp() {
    static const Word code[4] = {};
    return code + 1;
}

// Pushes a frame: [y0..y(n-1)][return address], as call + allocate do. Returns &y0.
inline Term* push_frame(Process& p, size_t n) {
    REQUIRE(size_t(p.stop - p.htop) >= n + 1 + S_RESERVED);
    p.stop -= n + 1;
    p.stop[n] = Term{reinterpret_cast<Word>(fake_cp())};
    for (size_t i = 0; i < n; ++i) p.stop[i] = NIL;
    return p.stop;
}

// Runs a minor GC with the given x registers as roots.
inline void gc(Process& p, std::vector<Term>& x, size_t need = 0) {
    garbage_collect(&p, x.data(), unsigned(x.size()), need);
}
inline void gc_full(Process& p, std::vector<Term>& x, size_t need = 0) {
    garbage_collect_full(&p, x.data(), unsigned(x.size()), need);
}

}  // namespace beam::gctest
