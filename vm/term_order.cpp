// OTP's term order. Comparison keeps the pairs it still has to compare on a stack of its own,
// so terms nested to any depth compare without growing the C stack.
#include "vm/term_order.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/ext_ids.hpp"
#include "vm/inline_stack.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/term_prefetch.hpp"

namespace beam {

namespace {

// number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring
enum Rank { NUMBER, ATOM, REF, FUN, PORT, PID, TUPLE, MAP, NIL_, LIST, BITSTRING };

// The rank of a term from its low six bits (immediates and lists), or, for a boxed term, from
// its header's subtag: two table loads instead of a chain of tests (rank_of was 3% of the
// compiler's run, compare_impl 6%, in a perf profile of compile:file on 20 stdlib modules).
constexpr uint8_t BOXED_RANK = 0xFF;

constexpr std::array<uint8_t, 64> immediate_ranks() {
    std::array<uint8_t, 64> r{};
    for (Word i = 0; i < 64; ++i) {
        Term t{i};
        if (is_list(t)) r[i] = LIST;
        else if (is_boxed(t)) r[i] = BOXED_RANK;
        else if (is_small(t)) r[i] = NUMBER;
        else if (is_atom(t)) r[i] = ATOM;
        else if (is_local_pid(t)) r[i] = PID;
        else if (is_local_port(t)) r[i] = PORT;
        else r[i] = NIL_;  // the only other immediate that is a value
    }
    return r;
}
constexpr std::array<uint8_t, 64> IMMEDIATE_RANK = immediate_ranks();

constexpr std::array<uint8_t, 16> boxed_ranks() {
    std::array<uint8_t, 16> r{};
    for (unsigned i = 0; i < 16; ++i) {
        switch (Sub(i)) {
        case Sub::Tuple: r[i] = TUPLE; break;
        case Sub::PosBig:
        case Sub::NegBig:
        case Sub::Float: r[i] = NUMBER; break;
        case Sub::Ref:
        case Sub::ExtRef: r[i] = REF; break;
        case Sub::Fun:
        case Sub::Export: r[i] = FUN; break;
        case Sub::ExtPort: r[i] = PORT; break;
        case Sub::ExtPid: r[i] = PID; break;
        case Sub::Map:
        case Sub::HashMap: r[i] = MAP; break;
        default: r[i] = BITSTRING;
        }
    }
    return r;
}
constexpr std::array<uint8_t, 16> BOXED_RANKS = boxed_ranks();

inline Rank rank_of(Term t) {
    uint8_t r = IMMEDIATE_RANK[t.raw & 0x3F];
    if (r == BOXED_RANK) r = BOXED_RANKS[size_t(header_sub(box_header(t)))];
    return Rank(r);
}

inline int cmp_u(uint64_t a, uint64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

int compare_atoms(Term a, Term b) {
    if (a == b) return 0;
    int c = atom_name(a).compare(atom_name(b));  // bytewise UTF-8 = code point order
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}

int compare_numbers(Term a, Term b, bool exact) {
    bool fa = is_float(a), fb = is_float(b);
    if (!fa && !fb) return int_compare(a, b);
    if (fa && fb) {
        double x = float_value(a), y = float_value(b);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    // In exact (map key) order OTP puts every integer before every float.
    if (exact) return fa ? 1 : -1;
    return fa ? -int_compare_double(b, float_value(a)) : int_compare_double(a, float_value(b));
}

// Bits [pos, pos+8) of a bitstring's data (fewer at the end are never asked for).
inline unsigned byte_at(const uint8_t* base, size_t pos) {
    const uint8_t* p = base + (pos >> 3);
    unsigned s = pos & 7;
    if (s == 0) return p[0];
    return uint8_t((p[0] << s) | (p[1] >> (8 - s)));
}

int compare_bits(Term a, Term b) {
    BitView x = bit_view(a), y = bit_view(b);
    size_t common = x.bit_size < y.bit_size ? x.bit_size : y.bit_size;
    size_t whole = common / 8;
    if (x.byte_aligned() && y.byte_aligned()) {
        int c = whole ? std::memcmp(x.bytes(), y.bytes(), whole) : 0;
        if (c) return c < 0 ? -1 : 1;
    } else {
        for (size_t i = 0; i < whole; ++i) {
            unsigned u = byte_at(x.base, x.bit_offset + i * 8), v = byte_at(y.base, y.bit_offset + i * 8);
            if (u != v) return u < v ? -1 : 1;
        }
    }
    if (unsigned rest = common & 7) {
        size_t px = x.bit_offset + whole * 8, py = y.bit_offset + whole * 8;
        // Read the remaining bits MSB-first; the byte that holds them always exists.
        unsigned u = 0, v = 0;
        for (unsigned i = 0; i < rest; ++i) {
            u = (u << 1) | ((x.base[(px + i) >> 3] >> (7 - ((px + i) & 7))) & 1);
            v = (v << 1) | ((y.base[(py + i) >> 3] >> (7 - ((py + i) & 7))) & 1);
        }
        if (u != v) return u < v ? -1 : 1;
    }
    return cmp_u(x.bit_size, y.bit_size);
}

// The node of a pid, port or reference for ordering, as erts' CMP_NODES: by name, then by
// creation. A local id's node is this thread's VM's (vm/node_identity.hpp).
int compare_id_nodes(Term a, Term b) {
    Term na, nb;
    uint32_t ca, cb;
    if (is_external_id(a)) na = ext_id_node(a), ca = ext_id_creation(a);
    else thread_node_identity().get(na, ca);
    if (is_external_id(b)) nb = ext_id_node(b), cb = ext_id_creation(b);
    else thread_node_identity().get(nb, cb);
    if (int c = compare_atoms(na, nb)) return c;
    return cmp_u(ca, cb);
}

// As erts: by node, then by id words from the most significant (id 0 is the least), where a
// reference with more words compares as if its extra high words were absent when they are zero.
int compare_refs(Term a, Term b) {
    bool la = is_boxed_sub(a, Sub::Ref), lb = is_boxed_sub(b, Sub::Ref);
    if (la && lb) {  // local: [hdr][id0][id1][id2]
        const Term* pa = boxed_ptr(a);
        const Term* pb = boxed_ptr(b);
        for (int i = 3; i >= 1; --i) {
            if (int c = cmp_u(pa[i].raw, pb[i].raw)) return c;
        }
        return 0;
    }
    if (int c = compare_id_nodes(a, b)) return c;
    RefIds ia = ref_ids(a), ib = ref_ids(b);
    size_t na = ref_significant_len(ia), nb = ref_significant_len(ib);
    if (na != nb) return na < nb ? -1 : 1;
    for (size_t i = na; i-- > 0;) {
        if (int c = cmp_u(ia.w[i], ib.w[i])) return c;
    }
    return 0;
}

// As erts 25: pids by serial, then id, then node (so pids of several nodes interleave).
int compare_pids(Term a, Term b) {
    if (is_local_pid(a) && is_local_pid(b)) return cmp_u(local_pid_number(a), local_pid_number(b));
    auto serial_id = [](Term t) {
        if (is_local_pid(t)) return pid_serial(local_pid_number(t)) << 32 | pid_id(local_pid_number(t));
        return uint64_t(ext_pid_serial(t)) << 32 | ext_pid_id(t);
    };
    if (int c = cmp_u(serial_id(a), serial_id(b))) return c;
    return compare_id_nodes(a, b);
}

// As erts: ports by node, then number.
int compare_ports(Term a, Term b) {
    if (is_local_port(a) && is_local_port(b)) return cmp_u(local_port_number(a), local_port_number(b));
    if (int c = compare_id_nodes(a, b)) return c;
    auto number = [](Term t) { return is_local_port(t) ? local_port_number(t) : ext_port_number(t); };
    return cmp_u(number(a), number(b));
}

int compare_walk(Term a, Term b, bool exact);

// Pairs still to compare, in order (the next on top): nesting of any depth, in any position,
// uses this heap stack and never the C stack.
struct Pending {
    Term a, b;
    bool exact;
};
// Most comparisons never outgrow the stack's first slots, and so never allocate. A pair goes
// on as three words, pushed and popped one by one: a stack of Pending structs was written
// field by field and read back with one 16-byte load, which the CPU cannot forward from the
// narrower stores (see eq_exact_compound, which keeps two words a pair).
class Work {
public:
    void push(const Pending& p) {
        words_.push(p.a);
        words_.push(p.b);
        words_.push(Term{Word(p.exact)});
    }
    Pending pop() {
        bool exact = words_.pop().raw != 0;
        Term b = words_.pop();
        Term a = words_.pop();
        return {a, b, exact};
    }
    bool empty() const { return words_.empty(); }

private:
    InlineStack<Term, 48> words_;
};

// Pushes n pairs so that the first is compared first.
void push_pairs(Work& work, const Term* a, const Term* b, size_t n, bool exact) {
    for (size_t i = n; i-- > 0;) work.push({a[i], b[i], exact});
}

// Local funs before export funs; then by module, index, uniq and free variables.
int compare_funs(Term a, Term b, bool exact, Work& work) {
    bool la = is_boxed_sub(a, Sub::Fun), lb = is_boxed_sub(b, Sub::Fun);
    if (la != lb) return la ? -1 : 1;
    if (!la) {
        const Export* ea = export_of(a);
        const Export* eb = export_of(b);
        if (int c = compare_atoms(ea->module, eb->module)) return c;
        if (int c = compare_atoms(ea->function, eb->function)) return c;
        return cmp_u(ea->arity, eb->arity);
    }
    const FunEntry* fa = fun_entry(a);
    const FunEntry* fb = fun_entry(b);
    if (int c = compare_atoms(fa->module, fb->module)) return c;
    if (int c = cmp_u(fa->index, fb->index)) return c;
    if (int c = cmp_u(fa->old_uniq, fb->old_uniq)) return c;
    size_t na = fun_num_free(a), nb = fun_num_free(b);
    if (int c = cmp_u(na, nb)) return c;
    push_pairs(work, fun_free_vars(a), fun_free_vars(b), na, exact);
    return 0;
}

// Pairs of a trie map in key order (flat maps already are).
std::vector<std::pair<Term, Term>> sorted_pairs(Term m) {
    auto pairs = map_pairs(m, MapOrder::Iteration);
    std::sort(pairs.begin(), pairs.end(),
              [](const auto& x, const auto& y) { return compare_walk(x.first, y.first, true) < 0; });
    return pairs;
}

// OTP: by size, then keys in map-key order, then values in key order. A flat map and a trie
// never have the same size, so two maps of one size have the same layout. Keys always compare
// in exact order: #{1 => x} and #{1.0 => x} are different maps.
int compare_maps(Term a, Term b, bool exact, Work& work) {
    size_t n = map_size(a);
    if (int c = cmp_u(n, map_size(b))) return c;
    if (is_flat_map(a) && is_flat_map(b)) {
        push_pairs(work, flat_map_values(a), flat_map_values(b), n, exact);
        push_pairs(work, flat_map_keys(a), flat_map_keys(b), n, true);
        return 0;
    }
    auto pa = sorted_pairs(a), pb = sorted_pairs(b);
    for (size_t i = n; i-- > 0;) work.push({pa[i].second, pb[i].second, exact});
    for (size_t i = n; i-- > 0;) work.push({pa[i].first, pb[i].first, true});
    return 0;
}

// Two tuples ordered by their arity or by leading elements: equal ones, small integers, atoms,
// terms of different ranks ({b_var, 5} against {b_var, x}) and tuples of such elements nested
// up to Depth levels ({b_var, {x, 5}}): -1, 0 or 1; UNDECIDED when an element pair needs the
// general walk. The compiler's map keys and ordsets elements are mostly such tuples: compiling
// 20 stdlib modules, 12.4 million comparisons took the work stack before the mixed kinds and
// nested tuples were decided here (4.7 million pairs of tuples differing at a nested tuple, 4.9
// million at a small integer or atom against another kind) and terms of different ranks before
// it (1.7 million). Under cachegrind, real_compile's quick size (boot included) then ran 6.5
// million fewer instructions (0.3%) and mispredicted 0.43 million fewer branches (0.8%).
// Both must be tuples (their rank is TUPLE).
constexpr int UNDECIDED = 2;
template <int Depth>
[[gnu::always_inline]] inline int compare_flat_tuples(Term a, Term b) {
    Word n = tuple_arity(a);
    if (Word m = tuple_arity(b); n != m) return n < m ? -1 : 1;
    const Term* ea = tuple_elems(a);
    const Term* eb = tuple_elems(b);
    for (Word i = 0; i < n; ++i) {
        Term x = ea[i], y = eb[i];
        if (x == y) continue;
        if (is_small(x) && is_small(y)) return small_value(x) < small_value(y) ? -1 : 1;
        if (is_atom(x) && is_atom(y)) return compare_atoms(x, y);
        Rank rx = rank_of(x), ry = rank_of(y);
        if (rx != ry) return rx < ry ? -1 : 1;
        if constexpr (Depth == 0) {
            return UNDECIDED;
        } else {
            if (rx != TUPLE) return UNDECIDED;
            if (int c = compare_flat_tuples<Depth - 1>(x, y); c != 0) return c;  // decided, or UNDECIDED
        }
    }
    return 0;
}

// The general walk, with its work stack: out of line, so that the cases compare_impl decides
// itself pay for no stack frame of that size.
[[gnu::noinline]] int compare_walk(Term a0, Term b0, bool exact0) {
    Work work;
    work.push({a0, b0, exact0});
    while (!work.empty()) {
        Pending top = work.pop();
        Term a = top.a, b = top.b;
        bool exact = top.exact;
        for (;;) {
            if (a == b) break;
            Rank ra = rank_of(a), rb = rank_of(b);
            if (ra != rb) return ra < rb ? -1 : 1;
            int c = 0;
            switch (ra) {
            case NUMBER: c = compare_numbers(a, b, exact); break;
            case ATOM: c = compare_atoms(a, b); break;
            case REF: c = compare_refs(a, b); break;
            case FUN: c = compare_funs(a, b, exact, work); break;
            case PORT: c = compare_ports(a, b); break;
            case PID: c = compare_pids(a, b); break;
            case NIL_: break;
            case MAP: c = compare_maps(a, b, exact, work); break;
            case BITSTRING: c = compare_bits(a, b); break;
            case TUPLE: {
                Word n = tuple_arity(a);
                if (int d = cmp_u(n, tuple_arity(b))) return d;
                // Leading elements that are equal, or small integers or atoms (record tags,
                // most keys), are decided here; from the first other one the rest waits.
                const Term* ea = tuple_elems(a);
                const Term* eb = tuple_elems(b);
                Word i = 0;
                for (; i < n; ++i) {
                    Term x = ea[i], y = eb[i];
                    if (x == y) continue;
                    if (is_small(x) && is_small(y)) return small_value(x) < small_value(y) ? -1 : 1;
                    if (is_atom(x) && is_atom(y)) return compare_atoms(x, y);
                    break;
                }
                if (i == n) break;
                push_pairs(work, ea + i + 1, eb + i + 1, n - i - 1, exact);
                a = ea[i];
                b = eb[i];
                continue;
            }
            case LIST:
                // The tail waits; the head is compared first, in this loop.
                work.push({tail(a), tail(b), exact});
                a = head(a);
                b = head(b);
                continue;
            }
            if (c) return c;
            break;
        }
    }
    return 0;
}

// Two small integers or two atoms (most map keys, most sort keys), terms of different ranks
// and most pairs of tuples are decided here, inline in each caller; the rest walk.
[[gnu::always_inline]] inline int compare_impl(Term a0, Term b0, bool exact0) {
    if (a0 == b0) return 0;
    if (is_small(a0) && is_small(b0)) return small_value(a0) < small_value(b0) ? -1 : 1;
    if (is_atom(a0) && is_atom(b0)) return compare_atoms(a0, b0);
    Rank r0 = rank_of(a0);
    if (Rank r1 = rank_of(b0); r0 != r1) return r0 < r1 ? -1 : 1;
    if (r0 == TUPLE)
        if (int c = compare_flat_tuples<2>(a0, b0); c != UNDECIDED) return c;
    return compare_walk(a0, b0, exact0);
}

}  // namespace

int compare_terms(Term a, Term b) { return compare_impl(a, b, false); }
int compare_terms_exact(Term a, Term b) { return compare_impl(a, b, true); }

namespace {

// Binary search of n sorted keys with `cmp(k)`, the order of k against the key sought.
template <class Cmp>
[[gnu::always_inline]] inline size_t search_sorted(const Term* keys, size_t n, bool* found, Cmp cmp) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp(keys[mid]);
        if (c == 0) {  // keys are unique: this is the one
            *found = true;
            return mid;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    *found = false;
    return lo;
}

}  // namespace

size_t search_sorted_exact(const Term* keys, size_t n, Term key, bool* found) {
    // A tuple key ({b_var, 5}: three in four of the compiler's searches) skips the tests for
    // small integers and atoms and its own rank at every step.
    if (is_tuple(key)) {
        return search_sorted(keys, n, found, [key](Term k) {
            if (k == key) return 0;
            if (Rank r = rank_of(k); r != TUPLE) return r < TUPLE ? -1 : 1;
            int c = compare_flat_tuples<2>(k, key);
            return c != UNDECIDED ? c : compare_walk(k, key, true);
        });
    }
    return search_sorted(keys, n, found, [key](Term k) { return compare_impl(k, key, true); });
}

// =:= is asked far more often than ordering (receive patterns, is_eq_exact, map keys), so it
// has its own walk: unequal immediates (two atoms, say) answer false at once, where ordering
// would compare the atoms' names; tuples, maps and lists are walked here; floats, bignums,
// binaries and local references are compared in place; other objects by their headers when
// those differ, else by the ordering comparison.
namespace {

// A tuple, a flat map ([keys tuple][values...]) and a trie node ([bitmap][size][children...])
// hold nothing but terms after their header, and two =:= ones have the same header: a map's
// layout and a trie's shape depend only on its keys (vm/map.hpp). They are compared element
// by element, as tuples. (Maps went through the ordering comparison, which sorts a trie's
// pairs: =:= of two equal maps of 440 keys took 118 us, OTP's 3.)
inline bool is_term_vector(Sub s) { return s == Sub::Tuple || s == Sub::Map || s == Sub::HashMap; }

// False when a and b, both known to be boxed and not the same word, are certainly different
// objects or are different by the exact order; true when equal. Not for term vectors.
bool boxed_eq_exact(Term a, Term b) {
    Term ha = box_header(a), hb = box_header(b);
    Sub sa = header_sub(ha);
    if (sa == Sub::Ref && header_sub(hb) == Sub::Ref) {
        // The three id words; a magic ref's object pointer and list link are not its value.
        const Term* x = boxed_ptr(a);
        const Term* y = boxed_ptr(b);
        return x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
    }
    if (ha == hb) {
        if (sa == Sub::Float) return float_value(a) == float_value(b);  // as the order: 0.0 =:= -0.0
        if (sa == Sub::PosBig || sa == Sub::NegBig)  // same sign and length: equal limbs or not
            return std::memcmp(boxed_ptr(a) + 1, boxed_ptr(b) + 1, header_arity(ha) * sizeof(Term)) == 0;
    }
    // A binary is =:= another of any representation (heap, refc, sub) with the same bits.
    if (is_binary_obj(a)) return is_binary_obj(b) && compare_bits(a, b) == 0;
    // Other kinds of object are never =:=, except an integer's two signs (the order decides).
    if (sa != header_sub(hb) && !is_big(a)) return false;
    return compare_impl(a, b, true) == 0;
}

}  // namespace

bool eq_exact_compound(Term a0, Term b0) {
    // Pairs still to compare, as two words pushed one by one: a stack of {a, b, exact} structs
    // (the ordering walk's) was written as two 8-byte stores and read back as one 16-byte load,
    // which the CPU cannot forward from the stores; =:= of two copies of a 4,000-record term
    // spent a fifth of its time on that load (606 us, OTP's interpreter 312).
    InlineStack<Term, 64> work;
    Term a = a0, b = b0;
    for (;;) {
        if (a == b) {
            if (work.empty()) return true;
            b = work.pop();
            a = work.pop();
            continue;
        }
        if (is_immediate(a) || is_immediate(b)) return false;
        if ((a.raw & tag::primary_mask) != (b.raw & tag::primary_mask)) return false;
        if (is_list(a)) {
            // Equal heads (a string's characters) go on to the tails at once; the tail
            // waits only while a compound head is compared.
            Term x = head(a), y = head(b);
            Term ta = tail(a), tb = tail(b);
            if (x != y) {
                if (is_immediate(x) || is_immediate(y)) return false;
                prefetch_target(ta);
                prefetch_target(tb);
                work.push(ta);
                work.push(tb);
                a = x;
                b = y;
                continue;
            }
            a = ta;
            b = tb;
            continue;
        }
        Term ha = box_header(a);
        if (!is_term_vector(header_sub(ha))) {
            if (!boxed_eq_exact(a, b)) return false;
            a = b;  // equal: take the next pair
            continue;
        }
        if (ha != box_header(b)) return false;  // another kind, arity, map size or shape
        const Term* ea = boxed_ptr(a) + 1;
        const Term* eb = boxed_ptr(b) + 1;
        Word n = header_arity(ha);
        // Immediates are decided in place; the compound elements wait on the stack, but for
        // the last, which is compared next without going through it.
        Term next_a = NIL, next_b = NIL;
        for (Word i = 0; i < n; ++i) {
            Term x = ea[i], y = eb[i];
            if (x == y) continue;
            if (is_immediate(x) || is_immediate(y)) return false;
            prefetch_target(x);
            prefetch_target(y);
            if (next_a != NIL) {
                work.push(next_a);
                work.push(next_b);
            }
            next_a = x;
            next_b = y;
        }
        a = next_a;
        b = next_b;  // NIL == NIL when nothing compound was left: the next pair is popped
    }
}

}  // namespace beam
