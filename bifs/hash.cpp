// erlang:phash2/1,2: OTP's portable hash (make_hash2 in erts utils.c), reproduced bit for
// bit because it is observable: it decides ETS/dict bucket placement in OTP's own Erlang code
// and tests compare its values with erl. Built on Bob Jenkins' 1996 mix (vm/jenkins_hash.hpp).
// erlang:phash/2 (the older make_hash) is in bifs/phash.cpp.
#include <cstring>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/hash.hpp"
#include "vm/ext_ids.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/inline_stack.hpp"
#include "vm/jenkins_hash.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/term_prefetch.hpp"
#include "vm/module.hpp"

namespace beam {
namespace {

using jenkins::block_hash;
using jenkins::hash1;
using jenkins::hash2;
using jenkins::HCONST;
using jenkins::hconst;

// [] hashes to this constant when it is the whole term (OTP special-cases it).
constexpr uint32_t NIL_ALONE_HASH = 3468870702u;
// The value mixed in for [] inside a term. Found by search against erl: it is the x for which
// hash1(0, x, HCONST_2) gives NIL_ALONE_HASH, and it makes "abc" and [a,b] hash as on erl.
constexpr uint32_t NIL_WORD32 = 2;

// OTP's atom hash, kept by the atom table (AtomTable::portable_hash).
uint32_t atom_hash(Term atom) { return AtomTable::instance().portable_hash(atom); }

void hash_small(uint32_t& h, SWord v) {
    if (v >= -(SWord{1} << 27) && v < (SWord{1} << 27)) {
        int32_t y = int32_t(v);
        if (y < 0) hash1(h, uint32_t(-y), HCONST);  // OTP mixes negatives twice
        hash1(h, uint32_t(y), HCONST);
    } else {
        uint64_t t = v < 0 ? uint64_t(-v) : uint64_t(v);
        hash2(h, uint32_t(t), uint32_t(t >> 32), v < 0 ? hconst(10) : hconst(11));
    }
}


// The work stack holds terms only, as OTP's does: an item of one word is stored and loaded
// whole (a three-field item was written field by field and read back at once, and the
// mismatched widths cost a store-forwarding stall at every pop: phash2 of a 37,000-token list
// took 7.8 ms against OTP's 3.5). A map's closing marks are two special immediates that no
// term holds; MAP_TAIL sits on the saved hash and saved xor, pushed as small integers.
constexpr Term MAP_PAIR{tag::special | (Word{2} << 6)};
constexpr Term MAP_TAIL{tag::special | (Word{3} << 6)};

}  // namespace

uint32_t make_hash2(Term top) {
    if (is_atom(top)) return atom_hash(top);
    uint32_t h = 0;
    uint32_t xor_pairs = 0;
    InlineStack<Term, 64> stack;
    stack.push(top);
    while (!stack.empty()) {
        Term t = stack.pop();
        if (t == MAP_PAIR) {
            xor_pairs ^= h;
            h = 0;
            continue;
        }
        if (t == MAP_TAIL) {
            h = uint32_t(small_value(stack.pop()));
            hash1(h, xor_pairs, hconst(19));
            xor_pairs = uint32_t(small_value(stack.pop()));
            continue;
        }
        if (is_small(t)) {
            hash_small(h, small_value(t));
        } else if (is_atom(t)) {
            if (h == 0)
                h = atom_hash(t);
            else
                hash1(h, atom_hash(t), hconst(3));
        } else if (is_nil(t)) {
            if (h == 0)
                h = NIL_ALONE_HASH;
            else
                hash1(h, NIL_WORD32, hconst(2));
        } else if (is_list(t)) {
            // Runs of bytes are packed four to a word, as OTP's string optimisation.
            int c = 0;
            uint32_t sh = 0;
            Term cell = t;
            while (is_small(head(cell)) && small_value(head(cell)) >= 0 && small_value(head(cell)) <= 255) {
                sh = (sh << 8) + uint32_t(small_value(head(cell)));
                if (c == 3) {
                    hash1(h, sh, hconst(4));
                    c = 0;
                    sh = 0;
                } else {
                    ++c;
                }
                t = tail(cell);
                if (!is_list(t)) break;
                cell = t;
            }
            if (c > 0) hash1(h, sh, hconst(4));
            if (is_list(t)) {
                prefetch_target(tail(cell));
                stack.push(tail(cell));
                stack.push(head(cell));
            } else {
                stack.push(t);
            }
        } else if (is_local_pid(t)) {
            hash1(h, uint32_t(pid_id(local_pid_number(t))), hconst(5));
        } else if (is_local_port(t)) {
            hash1(h, uint32_t(local_port_number(t)), hconst(6));
        } else if (is_tuple(t)) {
            Word n = tuple_arity(t);
            hash1(h, uint32_t(n), hconst(9));
            for (Word i = n; i-- > 0;) {
                prefetch_target(tuple_elem(t, i));
                stack.push(tuple_elem(t, i));
            }
        } else if (is_map(t)) {
            size_t n = map_size(t);
            hash1(h, uint32_t(n), hconst(16));
            if (n == 0) continue;
            // Pairs are hashed independently and xor-ed, so the result ignores key order and
            // a trie hashes as a flat map with the same pairs would.
            stack.push(make_small(SWord(xor_pairs)));
            stack.push(make_small(SWord(h)));
            stack.push(MAP_TAIL);
            h = 0;
            xor_pairs = 0;
            MapIterator it(t);
            Term k, v;
            while (it.next(&k, &v)) {
                stack.push(MAP_PAIR);
                stack.push(v);
                stack.push(k);
            }
        } else if (is_float(t)) {
            double d = float_value(t);
            if (d == 0.0) d = 0.0;  // -0.0 hashes as 0.0
            uint64_t bits;
            std::memcpy(&bits, &d, sizeof bits);
            // High word first (checked against erl: phash2(1.5)).
            hash2(h, uint32_t(bits >> 32), uint32_t(bits), hconst(12));
        } else if (is_big(t)) {
            uint32_t con = big_is_negative(t) ? hconst(10) : hconst(11);
            const uint64_t* limbs = big_limbs(t);
            for (size_t i = 0; i < big_limb_count(t); ++i)
                hash2(h, uint32_t(limbs[i]), uint32_t(limbs[i] >> 32), con);
        } else if (is_binary_obj(t)) {
            jenkins::hash_bitstring(h, t);
        } else if (is_boxed_sub(t, Sub::Ref)) {
            hash1(h, uint32_t(boxed_ptr(t)[1].raw), hconst(7));
        } else if (is_boxed_sub(t, Sub::Export)) {
            Export* e = export_of(t);
            hash2(h, e->arity, atom_hash(e->module), HCONST);
            hash1(h, atom_hash(e->function), hconst(14));
        } else if (is_boxed_sub(t, Sub::Fun)) {
            FunEntry* fe = fun_entry(t);
            size_t nfree = fun_num_free(t);
            hash2(h, uint32_t(nfree), atom_hash(fe->module), HCONST);
            hash2(h, fe->index, fe->old_uniq, HCONST);
            for (size_t i = nfree; i-- > 0;) stack.push(fun_free_vars(t)[i]);
        } else if (is_ext_pid(t)) {
            hash1(h, ext_pid_id(t), hconst(5));  // the id only, as for a local pid
        } else if (is_ext_port(t)) {
            uint64_t n = ext_port_number(t);
            hash2(h, uint32_t(n), uint32_t(n >> 32), hconst(6));
        } else if (is_ext_ref(t)) {
            hash1(h, ext_ref_id(t, 0), hconst(7));  // the first id word only, as for a local one
        }
    }
    return h;
}

namespace {

Term phash2_1(Process* p, const Term* a) {
    return make_small(SWord(make_hash2(a[0]) & ((uint32_t{1} << 27) - 1)));
}

// Range is 1..2^32.
Term phash2_2(Process* p, const Term* a) {
    auto range = is_integer(a[1]) ? int_to_int64(a[1]) : std::nullopt;
    if (!range || *range < 1 || *range > (int64_t{1} << 32)) return p->badarg();
    return make_small(SWord(uint64_t(make_hash2(a[0])) % uint64_t(*range)));
}

constexpr BifSpec table[] = {
    {"erlang", "phash2", 1, &phash2_1},
    {"erlang", "phash2", 2, &phash2_2},
};

}  // namespace

std::span<const BifSpec> hash_bifs() { return table; }

}  // namespace beam
