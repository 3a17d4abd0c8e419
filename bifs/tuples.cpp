// Tuple BIFs (OTP: bif.c, erl_bif_*). Indices are 1-based and must be small integers in range.
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/copy_words.hpp"

namespace beam {
namespace {

// A 1-based index in 1..limit, or 0 when `t` is not one.
Word index_arg(Term t, Word limit) {
    if (!is_small(t)) return 0;
    SWord v = small_value(t);
    return v >= 1 && Word(v) <= limit ? Word(v) : 0;
}

Term element_2(Process* p, const Term* a) {
    if (!is_tuple(a[1])) return p->badarg();
    Word i = index_arg(a[0], tuple_arity(a[1]));
    return i ? tuple_elem(a[1], i - 1) : p->badarg();
}

Term setelement_3(Process* p, const Term* a) {
    if (!is_tuple(a[1])) return p->badarg();
    Word n = tuple_arity(a[1]);
    Word i = index_arg(a[0], n);
    if (!i) return p->badarg();
    Term t = make_tuple_from(*p, tuple_elems(a[1]), n);
    tuple_elem(t, i - 1) = a[2];
    return t;
}

Term tuple_size_1(Process* p, const Term* a) {
    return is_tuple(a[0]) ? make_small(SWord(tuple_arity(a[0]))) : p->badarg();
}

// size/1 accepts tuples and binaries (a bitstring counts its whole bytes).
Term size_1(Process* p, const Term* a) {
    if (is_tuple(a[0])) return make_small(SWord(tuple_arity(a[0])));
    if (is_bitstring(a[0])) return make_small(SWord(bit_view(a[0]).bit_size >> 3));
    return p->badarg();
}

// OTP's limit on the size of a tuple the BIFs build (erl_term.h, ERTS_MAX_TUPLE_SIZE, 2^24 - 1).
// As in OTP, only the BIFs check it: binary_to_term and the loader's literals do not.
constexpr SWord MAX_TUPLE_ARITY = (SWord{1} << 24) - 1;

Term make_tuple_2(Process* p, const Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0 || small_value(a[0]) > MAX_TUPLE_ARITY) return p->badarg();
    Word n = Word(small_value(a[0]));
    Term* hp = p->alloc(1 + n);
    hp[0] = make_header(Sub::Tuple, n);
    for (Word i = 0; i < n; ++i) hp[1 + i] = a[1];
    return make_boxed(hp);
}

Term make_tuple_3(Process* p, const Term* a) {
    Term t = make_tuple_2(p, a);
    if (is_non_value(t)) return t;
    Word n = tuple_arity(t);
    Term init = a[2];
    for (; is_list(init); init = tail(init)) {
        Term pair = head(init);
        if (!is_tuple(pair) || tuple_arity(pair) != 2) return p->badarg();
        Word i = index_arg(tuple_elem(pair, 0), n);
        if (!i) return p->badarg();
        tuple_elem(t, i - 1) = tuple_elem(pair, 1);
    }
    return is_nil(init) ? t : p->badarg();
}

Term append_element_2(Process* p, const Term* a) {
    if (!is_tuple(a[0])) return p->badarg();
    Word n = tuple_arity(a[0]);
    if (SWord(n) + 1 > MAX_TUPLE_ARITY) return p->badarg();
    Term* hp = p->alloc(2 + n);
    hp[0] = make_header(Sub::Tuple, n + 1);
    copy_words(hp + 1, tuple_elems(a[0]), n);
    hp[1 + n] = a[1];
    return make_boxed(hp);
}

Term tuple_to_list_1(Process* p, const Term* a) {
    if (!is_tuple(a[0])) return p->badarg();
    return make_list_from(*p, tuple_elems(a[0]), tuple_arity(a[0]));
}

Term list_to_tuple_1(Process* p, const Term* a) {
    std::vector<Term> elems;
    if (!list_elements(a[0], elems) || SWord(elems.size()) > MAX_TUPLE_ARITY) return p->badarg();
    return make_tuple_from(*p, elems.data(), elems.size());
}

Term delete_element_2(Process* p, const Term* a) {
    if (!is_tuple(a[1])) return p->badarg();
    Word n = tuple_arity(a[1]);
    Word i = index_arg(a[0], n);
    if (!i) return p->badarg();
    Term* hp = p->alloc(n);
    hp[0] = make_header(Sub::Tuple, n - 1);
    for (Word k = 0, out = 1; k < n; ++k)
        if (k != i - 1) hp[out++] = tuple_elem(a[1], k);
    return make_boxed(hp);
}

Term insert_element_3(Process* p, const Term* a) {
    if (!is_tuple(a[1])) return p->badarg();
    Word n = tuple_arity(a[1]);
    Word i = index_arg(a[0], n + 1);
    if (!i) return p->badarg();
    Term* hp = p->alloc(n + 2);
    hp[0] = make_header(Sub::Tuple, n + 1);
    for (Word k = 0, out = 1; k <= n; ++k) {
        if (k == i - 1) hp[out++] = a[2];
        if (k < n) hp[out++] = tuple_elem(a[1], k);
    }
    return make_boxed(hp);
}

constexpr BifSpec table[] = {
    {"erlang", "element", 2, &element_2, true},
    {"erlang", "setelement", 3, &setelement_3},
    {"erlang", "tuple_size", 1, &tuple_size_1, true},
    {"erlang", "size", 1, &size_1, true},
    {"erlang", "make_tuple", 2, &make_tuple_2},
    {"erlang", "make_tuple", 3, &make_tuple_3},
    {"erlang", "append_element", 2, &append_element_2},
    {"erlang", "tuple_to_list", 1, &tuple_to_list_1},
    {"erlang", "list_to_tuple", 1, &list_to_tuple_1},
    {"erlang", "delete_element", 2, &delete_element_2},
    {"erlang", "insert_element", 3, &insert_element_3},
};

}  // namespace

std::span<const BifSpec> tuples_bifs() { return table; }

}  // namespace beam
