// Term order and equality, exactly as OTP:
//   number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring
// Integers and floats compare by value in `compare`; `compare_exact` orders 1 before 1.0 only
// where OTP's =:= would differ (used for map keys).
#pragma once

#include "vm/term.hpp"

namespace beam {

int compare_terms(Term a, Term b);        // -1, 0, 1 for <, ==, >  (arithmetic ==)
int compare_terms_exact(Term a, Term b);  // as compare_terms, but 1 and 1.0 differ (map key order)
// =:= of two compound terms (lists or boxed), not the same word: eq_exact's walk.
bool eq_exact_compound(Term a, Term b);
// =:=. The same word, or an immediate against anything else, is answered here, inline in
// every caller (lists:member, the process dictionary, is_eq_exact); the rest walks.
inline bool eq_exact(Term a, Term b) {
    if (a == b) return true;
    if (is_immediate(a) || is_immediate(b)) return false;
    return eq_exact_compound(a, b);
}
// The index of the first of n keys, sorted in exact order, that is not less than `key`;
// *found tells whether it is =:= key. The comparison is inlined into the search (a flat map's
// key lookup, vm/map.cpp).
size_t search_sorted_exact(const Term* keys, size_t n, Term key, bool* found);
// ==. Two different immediates are never ==: a small integer equals only a float, which is
// boxed; an atom is not ordered by its name here (lists:keyfind on atom keys did that per
// element).
inline bool eq_arith(Term a, Term b) {
    if (a == b) return true;
    if (is_immediate(a) && is_immediate(b)) return false;
    return compare_terms(a, b) == 0;
}

}  // namespace beam
