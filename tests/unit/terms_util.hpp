// Term builders for the term-services unit tests.
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam::test {

inline Term flt(TermAllocator& a, double d) { return make_float_at(a.alloc(FLOAT_WORDS), d); }

inline Term big(TermAllocator& a, std::string_view decimal) { return *int_from_string(a, decimal, 10); }

inline Term tuple(TermAllocator& a, std::initializer_list<Term> elems) {
    Term* hp = a.alloc(1 + elems.size());
    hp[0] = make_header(Sub::Tuple, elems.size());
    size_t i = 1;
    for (Term e : elems) hp[i++] = e;
    return make_boxed(hp);
}

inline Term list_with_tail(TermAllocator& a, std::vector<Term> elems, Term tail) {
    Term l = tail;
    for (size_t i = elems.size(); i-- > 0;) l = cons_at(a.alloc(2), elems[i], l);
    return l;
}

inline Term list(TermAllocator& a, std::vector<Term> elems) { return list_with_tail(a, std::move(elems), NIL); }

// A list of character codes (Latin-1 bytes of `s`).
inline Term str(TermAllocator& a, std::string_view s) {
    std::vector<Term> cs;
    for (unsigned char c : s) cs.push_back(make_small(c));
    return list(a, cs);
}

inline Term ref(TermAllocator& a, Word id0, Word id1, Word id2) {
    Term* hp = a.alloc(REF_WORDS);
    hp[0] = make_header(Sub::Ref, 3);
    hp[1] = Term{id0};
    hp[2] = Term{id1};
    hp[3] = Term{id2};
    return make_boxed(hp);
}

}  // namespace beam::test
