// make_internal_hash as OTP 25 computes it (verified against the trie erl prints for integer,
// float, binary, string, tuple and bignum keys). Terms are walked with an explicit stack in the
// same order as OTP's, because the order of mixing is the hash.
#include "vm/map_hash.hpp"

#include <cstring>
#include <vector>

#include "vm/binary.hpp"
#include "vm/ext_ids.hpp"
#include "vm/bignum.hpp"
#include "vm/jenkins_hash.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beam {

namespace {

using jenkins::hash1;
using jenkins::hash2;
using jenkins::hconst;

// OTP starts from this prime so the internal hash differs from phash2.
constexpr uint32_t INTERNAL_HASH_SALT = 3432918353u;

// OTP's CONST_HASH: light mixing of a type marker (list cells).
inline void const_hash(uint32_t& h, uint32_t c) {
    h ^= c;
    h = (h << 17) ^ (h >> 15);
}

inline void hash_word(uint32_t& h, Word w, uint32_t k) { hash2(h, uint32_t(w), uint32_t(w >> 32), k); }

inline bool is_byte(Term t) { return is_small(t) && small_value(t) >= 0 && small_value(t) <= 255; }


// Marker pushed after a list cell's tail when that tail is not a list (OTP's HASH_CDR).
constexpr Term HASH_CDR = NON_VALUE;

// The walk's stack: map keys are mostly small terms ({b_var, N}, {Label, Var} in OTP's
// compiler), whose walk fits in the inline words; a std::vector here was a malloc per hashed
// key (hamt::get, 0.1% of compile:file/2 in operator new alone).
class HashStack {
public:
    HashStack() {}
    HashStack(const HashStack&) = delete;
    HashStack& operator=(const HashStack&) = delete;
    ~HashStack() {
        if (data_ != inline_.t) delete[] data_;
    }
    bool empty() const { return n_ == 0; }
    void push_back(Term t) {
        if (n_ == cap_) grow();
        data_[n_++] = t;
    }
    Term back() const { return data_[n_ - 1]; }
    void pop_back() { --n_; }

private:
    void grow() {
        Term* bigger = new Term[2 * cap_];
        std::memcpy(static_cast<void*>(bigger), data_, n_ * sizeof(Term));
        if (data_ != inline_.t) delete[] data_;
        data_ = bigger;
        cap_ *= 2;
    }
    // Uninitialised on purpose: a Term array would be filled with NIL at every hash.
    union Inline {
        Inline() {}
        Term t[32];
    } inline_;
    Term* data_ = inline_.t;
    size_t n_ = 0, cap_ = 32;
};

}  // namespace

// Shared with erlang:phash2 (bifs/hash.cpp): both hash a bitstring the same way.
void jenkins::hash_bitstring(uint32_t& h, Term bin) {
    BitView v = bit_view(bin);
    size_t sz = v.byte_size();
    size_t extra = v.bit_size & 7;
    uint32_t con = jenkins::hconst(13) + h;
    if (v.bit_size == 0) {
        h = con;
        return;
    }
    std::vector<uint8_t> buf(sz + 1, 0);
    copy_bits(v.base, v.bit_offset, buf.data(), 0, v.bit_size);
    h = jenkins::block_hash(buf.data(), sz, con);
    if (extra) jenkins::hash2(h, uint32_t(extra), uint32_t(buf[sz] >> (8 - extra)), jenkins::hconst(15));
}

uint32_t internal_hash(Term term, uint32_t salt) {
    uint32_t h = salt ^ INTERNAL_HASH_SALT;
    if (is_immediate(term)) {
        hash_word(h, term.raw, jenkins::HCONST);
        return h;
    }
    HashStack stack;
    for (;;) {
        bool pop = true;  // false: `term` was set to the next thing to hash
        if (is_list(term)) {
            int c = 0;
            uint32_t sh = 0;
            Term cell = term;
            while (is_byte(head(cell))) {  // runs of bytes: four to a word, as OTP
                sh = (sh << 8) + uint32_t(small_value(head(cell)));
                if (c == 3) {
                    hash1(h, sh, hconst(4));
                    c = 0;
                    sh = 0;
                } else {
                    ++c;
                }
                term = tail(cell);
                if (!is_list(term)) break;
                cell = term;
            }
            if (c > 0) hash2(h, sh, uint32_t(c), hconst(22));
            if (is_list(term)) {
                Term rest = tail(cell);
                const_hash(h, hconst(17));
                stack.push_back(rest);
                if (!is_list(rest)) stack.push_back(HASH_CDR);
                term = head(cell);
            }
            pop = false;
        } else if (is_immediate(term)) {
            hash_word(h, term.raw, jenkins::HCONST);
        } else {
            switch (header_sub(box_header(term))) {
            case Sub::Tuple: {
                Word n = tuple_arity(term);
                hash1(h, uint32_t(n), hconst(9));
                if (n == 0) break;
                for (Word i = n; i-- > 1;) stack.push_back(tuple_elem(term, i));
                term = tuple_elem(term, 0);
                pop = false;
                break;
            }
            case Sub::Map: {
                size_t n = map_size(term);
                hash1(h, uint32_t(n), hconst(16));
                for (size_t i = n; i-- > 0;) {
                    stack.push_back(flat_map_values(term)[i]);
                    stack.push_back(flat_map_keys(term)[i]);
                }
                break;
            }
            case Sub::HashMap: {
                // A head hashes its size; then every child is pushed in slot order (leaves as
                // key and value), so they are mixed from the last slot down, depth first.
                if (hamt_is_head(term)) hash1(h, uint32_t(map_size(term)), hconst(16));
                const Term* ch = hamt_children(term);
                for (size_t i = 0, n = hamt_child_count(term); i < n; ++i) {
                    if (is_list(ch[i])) {
                        stack.push_back(tail(ch[i]));
                        stack.push_back(head(ch[i]));
                    } else {
                        stack.push_back(ch[i]);
                    }
                }
                break;
            }
            case Sub::PosBig:
            case Sub::NegBig: {
                uint32_t con = big_is_negative(term) ? hconst(10) : hconst(11);
                const uint64_t* limbs = big_limbs(term);
                for (size_t i = 0, n = big_limb_count(term); i < n; ++i) hash_word(h, limbs[i], con);
                break;
            }
            case Sub::Float: {
                double d = float_value(term);
                if (d == 0.0) d = 0.0;  // -0.0 hashes as 0.0 (they are the same key in OTP 25)
                uint64_t bits;
                std::memcpy(&bits, &d, sizeof bits);
                hash_word(h, bits, hconst(12));
                break;
            }
            case Sub::HeapBin:
            case Sub::RefcBin:
            case Sub::SubBin: jenkins::hash_bitstring(h, term); break;
            case Sub::Fun: {
                // OTP mixes the module's atom word; like atoms, not reproducible here.
                const FunEntry* fe = fun_entry(term);
                size_t nfree = fun_num_free(term);
                hash2(h, uint32_t(nfree), uint32_t(fe->module.raw), hconst(20));
                hash2(h, fe->index, fe->old_uniq, hconst(21));
                for (size_t i = nfree; i-- > 0;) stack.push_back(fun_free_vars(term)[i]);
                break;
            }
            case Sub::Export: {
                // OTP hashes the Export entry's address; any hash that tells entries apart will do.
                const Export* e = export_of(term);
                hash2(h, uint32_t(e->module.raw), uint32_t(e->function.raw), hconst(14));
                hash1(h, e->arity, hconst(14));
                break;
            }
            default: {
                // References and external identifiers: every payload word, so distinct terms
                // hash apart at some salt (the trie relies on it).
                // A magic ref hashes as its ids alone (its object pointer and list link are not
                // part of its value).
                // An external reference hashes its node, creation and the id words that count
                // for equality (vm/ext_ids.hpp: trailing zero words do not).
                const Term* w = boxed_ptr(term);
                if (header_sub(w[0]) == Sub::ExtRef) {
                    RefIds ids = ref_ids(term);
                    hash_word(h, ext_id_node(term).raw, hconst(7));
                    hash_word(h, ext_id_creation(term), hconst(7));
                    for (size_t i = 0, n = ref_significant_len(ids); i < n; ++i) hash_word(h, ids.w[i], hconst(7));
                    break;
                }
                Word n = header_sub(w[0]) == Sub::Ref ? 3 : header_arity(w[0]);
                for (Word i = 1; i <= n; ++i) hash_word(h, w[i].raw, hconst(7));
                break;
            }
            }
        }
        if (!pop) continue;
        for (;;) {
            if (stack.empty()) return h;
            term = stack.back();
            stack.pop_back();
            if (term == HASH_CDR) {
                const_hash(h, hconst(18));
                continue;
            }
            break;
        }
    }
}

uint32_t map_key_hash(Term key, unsigned depth) {
    uint32_t salt = 0;
    if (depth > 0) hash2(salt, depth, 1, hconst(22));
    return internal_hash(key, salt);
}

}  // namespace beam
