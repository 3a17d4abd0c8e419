// erlang:phash/2: OTP's older portable hash (make_hash in erts utils.c), kept bit-exact
// because phash values are observable and old code still buckets with them. Each term kind
// multiplies the running hash by its own prime ("funny number") and adds a value; lists and
// tuples fold their elements left to right. Maps hash with make_hash2 (phash2's function).
#include <cstring>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/hash.hpp"
#include "vm/atom_table.hpp"
#include "vm/ext_ids.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beam {
namespace {

constexpr uint32_t FUNNY1 = 268440163, FUNNY2 = 268439161, FUNNY3 = 268435459, FUNNY4 = 268436141,
                   FUNNY5 = 268438633, FUNNY6 = 268437017, FUNNY8 = 268437511, FUNNY9 = 268439627,
                   FUNNY10 = 268440479, FUNNY11 = 268440577, FUNNY12 = 268440581, FUNNY13 = 268440593,
                   FUNNY14 = 268440611;

// An atom's hash value in the atom table (OTP's hashpjw of the name), which make_hash mixes in
// as make_hash2 does.
uint32_t atom_hvalue(Term atom) { return AtomTable::instance().portable_hash(atom); }

// Four bytes of x, least significant first.
void uint32_step(uint32_t& h, uint32_t x, uint32_t prime) {
    h = (((h * prime + (x & 0xFF)) * prime + ((x >> 8) & 0xFF)) * prime + ((x >> 16) & 0xFF)) * prime + (x >> 24);
}

void hash_binary(uint32_t& h, Term bin) {
    BitView v = bit_view(bin);
    size_t sz = v.byte_size();
    size_t extra = v.bit_size & 7;
    std::vector<uint8_t> buf(sz + 1, 0);
    copy_bits(v.base, v.bit_offset, buf.data(), 0, v.bit_size);
    for (size_t i = 0; i < sz; ++i) h = h * FUNNY1 + buf[i];
    if (extra) h = (h * FUNNY1 + (buf[sz] >> (8 - extra))) * FUNNY12 + uint32_t(extra);
    h = h * FUNNY4 + uint32_t(sz);
}

void hash_magnitude(uint32_t& h, const uint64_t* limbs, size_t n, bool negative) {
    // Bytes from the least significant; the top limb contributes 4 bytes if it fits in 32 bits.
    for (size_t i = 0; i < n; ++i) {
        uint64_t d = limbs[i];
        int bytes = (i + 1 == n && (d >> 32) == 0) ? 4 : 8;
        for (int j = 0; j < bytes; ++j, d >>= 8) h = h * FUNNY2 + uint32_t(d & 0xFF);
    }
    h *= negative ? FUNNY4 : FUNNY3;
}

// Work items: a term, or a marker applied after a list tail / a tuple's elements.
struct Item {
    enum Kind { TermItem, ListByte, ListEnd, TupleEnd } kind;
    Term term;
    uint32_t arity = 0;
};

uint32_t make_hash(Term top) {
    uint32_t h = 0;
    std::vector<Item> stack{{Item::TermItem, top}};
    while (!stack.empty()) {
        Item item = stack.back();
        stack.pop_back();
        if (item.kind == Item::ListEnd) {
            h *= FUNNY8;
            continue;
        }
        if (item.kind == Item::ListByte) {
            h = h * FUNNY2 + uint32_t(small_value(item.term));
            continue;
        }
        if (item.kind == Item::TupleEnd) {
            h = h * FUNNY9 + item.arity;
            continue;
        }
        Term t = item.term;
        if (is_nil(t)) {
            h = h * FUNNY3 + 1;
        } else if (is_atom(t)) {
            h = h * FUNNY1 + atom_hvalue(t);
        } else if (is_small(t)) {
            SWord v = small_value(t);
            uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
            uint32_step(h, uint32_t(mag), FUNNY2);
            if (mag >> 32) uint32_step(h, uint32_t(mag >> 32), FUNNY2);
            h *= v < 0 ? FUNNY4 : FUNNY3;
        } else if (is_list(t)) {
            // OTP: hash the heads, then the final tail, then multiply by FUNNY8 once. Heads
            // that are bytes take a cheaper step (OTP's string optimisation).
            Term cell = t;
            std::vector<Term> heads;
            while (is_list(cell)) {
                heads.push_back(head(cell));
                cell = tail(cell);
            }
            stack.push_back({Item::ListEnd, NIL});
            stack.push_back({Item::TermItem, cell});
            for (size_t i = heads.size(); i-- > 0;) {
                Term e = heads[i];
                bool byte = is_small(e) && small_value(e) >= 0 && small_value(e) <= 255;
                stack.push_back({byte ? Item::ListByte : Item::TermItem, e});
            }
        } else if (is_tuple(t)) {
            Word n = tuple_arity(t);
            stack.push_back({Item::TupleEnd, NIL, uint32_t(n)});
            for (Word i = n; i-- > 0;) stack.push_back({Item::TermItem, tuple_elem(t, i)});
        } else if (is_float(t)) {
            double d = float_value(t);
            if (d == 0.0) d = 0.0;
            uint64_t bits;
            std::memcpy(&bits, &d, sizeof bits);
            h = h * FUNNY6 + (uint32_t(bits) ^ uint32_t(bits >> 32));
        } else if (is_big(t)) {
            hash_magnitude(h, big_limbs(t), big_limb_count(t), big_is_negative(t));
        } else if (is_binary_obj(t)) {
            hash_binary(h, t);
        } else if (is_map(t)) {
            h = h * FUNNY13 + FUNNY14 + make_hash2(t);
        } else if (is_local_pid(t)) {
            uint32_step(h, uint32_t(pid_id(local_pid_number(t))), FUNNY5);
            h *= FUNNY6;
        } else if (is_local_port(t)) {
            uint64_t n = local_port_number(t);
            if (n >> 32) uint32_step(h, uint32_t(n >> 32), FUNNY11);
            uint32_step(h, uint32_t(n), FUNNY9);
            h *= FUNNY10;
        } else if (is_ext_pid(t)) {
            uint32_step(h, ext_pid_id(t), FUNNY5);
            h *= FUNNY6;
        } else if (is_ext_port(t)) {
            uint64_t n = ext_port_number(t);
            if (n >> 32) uint32_step(h, uint32_t(n >> 32), FUNNY11);
            uint32_step(h, uint32_t(n), FUNNY9);
            h *= FUNNY10;
        } else if (is_ref(t)) {  // the first id word only, local or external
            uint32_step(h, ref_ids(t).w[0], FUNNY9);
            h *= FUNNY10;
        } else if (is_boxed_sub(t, Sub::Export)) {
            Export* e = export_of(t);
            h = h * FUNNY11 + e->arity;
            h = h * FUNNY1 + atom_hvalue(e->module);
            h = h * FUNNY1 + atom_hvalue(e->function);
        } else if (is_boxed_sub(t, Sub::Fun)) {
            FunEntry* fe = fun_entry(t);
            size_t nfree = fun_num_free(t);
            h = h * FUNNY10 + uint32_t(nfree);
            h = h * FUNNY1 + atom_hvalue(fe->module);
            h = h * FUNNY2 + fe->index;
            h = h * FUNNY2 + fe->old_uniq;
            for (size_t i = nfree; i-- > 0;) stack.push_back({Item::TermItem, fun_free_vars(t)[i]});
        }
    }
    return h;
}

// Range 1..2^32; the result is 1..Range.
Term phash_2(Process* p, const Term* a) {
    auto range = is_integer(a[1]) ? int_to_int64(a[1]) : std::nullopt;
    if (!range || *range < 1 || *range > (int64_t{1} << 32)) return p->badarg();
    return make_small(SWord(uint64_t(make_hash(a[0])) % uint64_t(*range) + 1));
}

constexpr BifSpec table[] = {
    {"erlang", "phash", 2, &phash_2},
};

}  // namespace

std::span<const BifSpec> phash_bifs() { return table; }

}  // namespace beam
