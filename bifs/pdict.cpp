// The process dictionary: put/2, get/1, get/0, erase/1, erase/0, get_keys/0,1.
// p->dictionary is a list of {Key, Value}, newest key first; the GC treats it as a root.
// OTP keeps a hash table whose get/0 order depends on key hashes; we list keys in the order
// they were first put, which is what OTP shows for the small dictionaries we checked.
#include <algorithm>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/term_order.hpp"

namespace beam {
namespace {

// The {Key, Value} tuple for key (=:=), or NON_VALUE; *before: how many entries come first.
Term find_entry(Term dict, Term key, size_t* before = nullptr) {
    for (size_t n = 0; is_list(dict); dict = tail(dict), ++n) {
        if (eq_exact(tuple_elem(head(dict), 0), key)) {
            if (before) *before = n;
            return head(dict);
        }
    }
    return NON_VALUE;
}

// The dictionary with its entry after `before` others replaced by `entry`, or dropped when
// entry is NON_VALUE: the cells before it are copied, the ones after it shared, so an entry
// keeps its place (get/0's first-put order) and put/2 of a key near the front (rand keeps its
// seed here and puts it at every call) copies little.
Term with_entry_at(Process* p, size_t before, Term entry) {
    size_t n = before + (is_value(entry) ? 1 : 0);
    Term* cells = n ? p->alloc(2 * n) : nullptr;
    Term l = p->dictionary;
    for (size_t i = 0; i < before; ++i, l = tail(l)) cons_at(cells + 2 * i, head(l), make_list(cells + 2 * i + 2));
    Term rest = is_value(entry) ? cons_at(cells + 2 * before, entry, tail(l)) : tail(l);
    if (before == 0) return rest;
    cells[2 * before - 1] = rest;  // the last copied cell's tail
    return make_list(cells);
}

Term put_2(Process* p, const Term* a) {
    size_t before;
    Term old = find_entry(p->dictionary, a[0], &before);
    Term entry = make_tuple(*p, {a[0], a[1]});
    if (is_non_value(old)) {
        p->dictionary = cons_at(p->alloc(2), entry, p->dictionary);
        return am::undefined;
    }
    p->dictionary = with_entry_at(p, before, entry);
    return tuple_elem(old, 1);
}

Term get_1(Process* p, const Term* a) {
    Term e = find_entry(p->dictionary, a[0]);
    return is_non_value(e) ? am::undefined : tuple_elem(e, 1);
}

Term erase_1(Process* p, const Term* a) {
    size_t before;
    Term old = find_entry(p->dictionary, a[0], &before);
    if (is_non_value(old)) return am::undefined;
    p->dictionary = with_entry_at(p, before, NON_VALUE);
    return tuple_elem(old, 1);
}

// Entries oldest first.
std::vector<Term> entries_in_order(Term dict) {
    std::vector<Term> entries;
    list_elements(dict, entries);
    std::reverse(entries.begin(), entries.end());
    return entries;
}

Term get_0(Process* p, const Term*) {
    auto entries = entries_in_order(p->dictionary);
    return make_list_from(*p, entries.data(), entries.size());
}

Term erase_0(Process* p, const Term*) {
    auto entries = entries_in_order(p->dictionary);
    p->dictionary = NIL;
    return make_list_from(*p, entries.data(), entries.size());
}

Term get_keys_0(Process* p, const Term*) {
    std::vector<Term> keys;
    for (Term e : entries_in_order(p->dictionary)) keys.push_back(tuple_elem(e, 0));
    return make_list_from(*p, keys.data(), keys.size());
}

// Keys whose value is =:= to the argument.
Term get_keys_1(Process* p, const Term* a) {
    std::vector<Term> keys;
    for (Term e : entries_in_order(p->dictionary))
        if (eq_exact(tuple_elem(e, 1), a[0])) keys.push_back(tuple_elem(e, 0));
    return make_list_from(*p, keys.data(), keys.size());
}

constexpr BifSpec table[] = {
    {"erlang", "put", 2, &put_2},
    {"erlang", "get", 1, &get_1},
    {"erlang", "get", 0, &get_0},
    {"erlang", "erase", 1, &erase_1},
    {"erlang", "erase", 0, &erase_0},
    {"erlang", "get_keys", 0, &get_keys_0},
    {"erlang", "get_keys", 1, &get_keys_1},
};

}  // namespace

std::span<const BifSpec> pdict_bifs() { return table; }

}  // namespace beam
