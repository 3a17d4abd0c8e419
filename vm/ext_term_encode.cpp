// term_to_binary: the external term format encoder, byte for byte what OTP 25 writes.
//
// OTP 25 choices reproduced here: atoms that are all Latin-1 use ATOM_EXT (Latin-1 bytes, even
// when short) unless minor_version is 2,
// others SMALL_ATOM_UTF8_EXT / ATOM_UTF8_EXT; integers use the smallest of
// SMALL_INTEGER, INTEGER, SMALL_BIG, LARGE_BIG; floats NEW_FLOAT_EXT (FLOAT_EXT text for
// minor_version 0); a proper list of bytes shorter than 65536 is STRING_EXT; local pids, ports and
// references carry this node's name and creation (EncodeOptions::node), external ones their own;
// ports use NEW_PORT_EXT up to 2^28-1 and V4_PORT_EXT above (erts' ERTS_MAX_V3_PORT_NUMBER);
// references NEWER_REFERENCE_EXT with all their id words; local funs are NEW_FUN_EXT. Compression is
// used only when it makes the result smaller. Encoding is iterative so deep terms cannot overflow the C stack.
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <vector>
#include <zlib.h>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/ext_ids.hpp"
#include "vm/ext_term.hpp"
#include "vm/ext_term_tags.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/term_order.hpp"

namespace beam {

namespace {

class Encoder {
public:
    Encoder(std::vector<uint8_t>& out, const EncodeOptions& opts) : out_(out), opts_(opts) {}
    // Counts the bytes the encoding takes without writing them (external_size).
    Encoder(size_t& counted, const EncodeOptions& opts) : out_(unused_), opts_(opts), counted_(&counted) {}

    Result<void> run(Term root) {
        stack_.push_back(root);
        while (!stack_.empty()) {
            Term t = stack_.back();
            stack_.pop_back();
            if (t == SIZE_PATCH) {  // a NEW_FUN_EXT is complete: write its Size field
                size_t at = size_t(small_value(stack_.back()));
                stack_.pop_back();
                if (counted_) continue;
                uint32_t size = uint32_t(out_.size() - at);
                for (int i = 0; i < 4; ++i) out_[at + i] = uint8_t(size >> (24 - 8 * i));
                continue;
            }
            BEAM_TRY_VOID(encode_one(t));
        }
        return {};
    }

private:
    // Stack marker (never a term to encode), below it the offset of a Size field to fill in.
    static constexpr Term SIZE_PATCH = NON_VALUE;

    // NEW_FUN_EXT. OTP 25: Uniq is the module's md5; Size counts from itself to the end of the
    // free variables; OldIndex/OldUniq are ordinary integers; Pid is the closure's creator.
    void local_fun(Term t) {
        const FunEntry* fe = fun_entry(t);
        size_t n = fun_num_free(t);
        u8(ext::NEW_FUN);
        size_t size_at = pos();
        u32(0);
        u8(uint8_t(fe->fun_arity()));
        bytes(fe->md5, 16);
        u32(fe->new_index);
        u32(uint32_t(n));
        atom(fe->module);
        size_t index_at = pos();
        integer(make_small(fe->index));
        integer(make_small(fe->old_uniq));
        if (opts_.estimate_slack) *opts_.estimate_slack += 2 * 5 - (pos() - index_at);
        stack_.push_back(make_small(SWord(size_at)));
        stack_.push_back(SIZE_PATCH);
        for (size_t i = n; i > 0; --i) stack_.push_back(fun_free_vars(t)[i - 1]);
        stack_.push_back(fun_creator(t));
    }

    size_t pos() const { return counted_ ? *counted_ : out_.size(); }
    void u8(uint8_t v) {
        if (counted_) ++*counted_;
        else out_.push_back(v);
    }
    void u16(uint16_t v) { u8(uint8_t(v >> 8)), u8(uint8_t(v)); }
    void u32(uint32_t v) {
        for (int s = 24; s >= 0; s -= 8) u8(uint8_t(v >> s));
    }
    void bytes(const uint8_t* p, size_t n) {
        if (counted_) *counted_ += n;
        else out_.insert(out_.end(), p, p + n);
    }

    void atom(Term a) {
        if (opts_.atom_refs) {
            if (int i = opts_.atom_refs->index_of(a); i >= 0) {
                u8(ext::ATOM_CACHE_REF);
                u8(uint8_t(i));
                return;
            }
        }
        std::string_view s = atom_name(a);
        const auto* text = reinterpret_cast<const uint8_t*>(s.data());
        // Latin-1 when every code point is below 256 (UTF-8 lead bytes C2/C3 only); minor
        // version 2 writes every atom in UTF-8 (erts' DFLAG_UTF8_ATOMS). An ASCII name (the
        // usual case) is the same bytes either way.
        bool ascii = std::all_of(text, text + s.size(), [](uint8_t c) { return c < 0x80; });
        if (ascii && opts_.minor_version < 2) {
            u8(ext::ATOM);
            u16(uint16_t(s.size()));
            bytes(text, s.size());
            return;
        }
        std::string latin1;
        bool is_latin1 = opts_.minor_version < 2;
        for (size_t i = 0; i < s.size() && is_latin1; ++i) {
            uint8_t c = text[i];
            if (c < 0x80) latin1 += char(c);
            else if ((c == 0xC2 || c == 0xC3) && i + 1 < s.size()) latin1 += char(((c & 0x03) << 6) | (text[++i] & 0x3F));
            else is_latin1 = false;
        }
        if (is_latin1) {
            u8(ext::ATOM);
            u16(uint16_t(latin1.size()));
            bytes(reinterpret_cast<const uint8_t*>(latin1.data()), latin1.size());
        } else if (s.size() < 256) {
            u8(ext::SMALL_ATOM_UTF8);
            u8(uint8_t(s.size()));
            bytes(text, s.size());
        } else {
            u8(ext::ATOM_UTF8);
            u16(uint16_t(s.size()));
            bytes(text, s.size());
        }
    }
    const NodeIdentity& self() const { return opts_.node ? *opts_.node : not_alive_identity(); }
    void port_ext(Term node, uint32_t creation, uint64_t n) {
        constexpr uint64_t MAX_V3_PORT_NUMBER = (uint64_t{1} << 28) - 1;
        u8(n > MAX_V3_PORT_NUMBER ? ext::V4_PORT : ext::NEW_PORT);
        atom(node);
        if (n > MAX_V3_PORT_NUMBER) u32(uint32_t(n >> 32));
        u32(uint32_t(n));
        u32(creation);
    }

    // Magnitude bytes, least significant first, without leading zeros.
    void big_bytes(const uint64_t* limbs, size_t n, bool negative) {
        size_t nbytes = n * 8;
        auto byte_at = [&](size_t i) { return uint8_t(limbs[i / 8] >> (8 * (i % 8))); };
        while (nbytes > 0 && byte_at(nbytes - 1) == 0) --nbytes;
        if (nbytes < 256) {
            u8(ext::SMALL_BIG);
            u8(uint8_t(nbytes));
        } else {
            u8(ext::LARGE_BIG);
            u32(uint32_t(nbytes));
        }
        u8(negative ? 1 : 0);
        for (size_t i = 0; i < nbytes; ++i) u8(byte_at(i));
    }

    void integer(Term t) {
        if (is_small(t)) {
            int64_t v = small_value(t);
            if (v >= 0 && v <= 255) {
                u8(ext::SMALL_INTEGER);
                u8(uint8_t(v));
            } else if (v >= INT32_MIN && v <= INT32_MAX) {
                u8(ext::INTEGER);
                u32(uint32_t(int32_t(v)));
            } else {
                uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
                big_bytes(&mag, 1, v < 0);
            }
            return;
        }
        big_bytes(big_limbs(t), big_limb_count(t), big_is_negative(t));
    }

    void float_(double d) {
        if (opts_.minor_version == 0) {
            char buf[32] = {};
            std::snprintf(buf, sizeof buf, "%.20e", d);
            u8(ext::FLOAT);
            bytes(reinterpret_cast<const uint8_t*>(buf), 31);
            return;
        }
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        u8(ext::NEW_FLOAT);
        u32(uint32_t(bits >> 32));
        u32(uint32_t(bits));
    }

    void bitstring(Term t) {
        BitView v = bit_view(t);
        size_t nbytes = (v.bit_size + 7) / 8;
        unsigned tail_bits = unsigned(v.bit_size & 7);
        if (tail_bits == 0) {
            u8(ext::BINARY);
        } else {
            u8(ext::BIT_BINARY);
        }
        u32(uint32_t(nbytes));
        if (tail_bits) u8(uint8_t(tail_bits));
        if (counted_) {
            *counted_ += nbytes;
            return;
        }
        if (v.byte_aligned() && !tail_bits) {  // one pass over fresh memory, not a fill and a copy
            bytes(v.bytes(), nbytes);
            return;
        }
        size_t start = out_.size();
        out_.resize(start + nbytes, 0);
        if (v.byte_aligned()) std::memcpy(out_.data() + start, v.bytes(), nbytes);
        else copy_bits(v.base, v.bit_offset, out_.data() + start, 0, v.bit_size);
        if (tail_bits) out_.back() &= uint8_t(0xFF << (8 - tail_bits));
    }

    // STRING_EXT or LIST_EXT; elements and the tail are pushed for the main loop.
    void list(Term t) {
        size_t n = 0;
        bool bytes_only = true;
        Term p = t;
        for (; is_list(p); p = tail(p), ++n) {
            Term h = head(p);
            if (!is_small(h) || small_value(h) < 0 || small_value(h) > 255) bytes_only = false;
        }
        if (bytes_only && is_nil(p) && n < 65536) {
            u8(ext::STRING);
            u16(uint16_t(n));
            if (counted_) {
                *counted_ += n;
                return;
            }
            for (Term q = t; is_list(q); q = tail(q)) u8(uint8_t(small_value(head(q))));
            return;
        }
        u8(ext::LIST);
        u32(uint32_t(n));
        size_t base = stack_.size();
        stack_.resize(base + n + 1);
        stack_[base] = p;  // the tail comes last
        size_t i = base + n;
        for (Term q = t; is_list(q); q = tail(q)) stack_[i--] = head(q);
    }

    Result<void> encode_one(Term t);

    std::vector<uint8_t> unused_;  // the output of a counting encoder: never written
    std::vector<uint8_t>& out_;
    const EncodeOptions& opts_;
    size_t* counted_ = nullptr;
    std::vector<Term> stack_;
};

Result<void> Encoder::encode_one(Term t) {
    if (is_integer(t)) {
        integer(t);
        return {};
    }
    if (is_atom(t)) {
        atom(t);
        return {};
    }
    if (is_nil(t)) {
        u8(ext::NIL);
        return {};
    }
    if (is_list(t)) {
        list(t);
        return {};
    }
    if (is_local_pid(t) || is_local_port(t)) {
        Term node;
        uint32_t creation;
        self().get(node, creation);
        if (is_local_port(t)) {
            port_ext(node, creation, local_port_number(t));
            return {};
        }
        uint64_t n = local_pid_number(t);
        u8(ext::NEW_PID);
        atom(node);
        u32(uint32_t(pid_id(n)));
        u32(uint32_t(pid_serial(n)));
        u32(creation);
        return {};
    }
    if (!is_boxed(t)) return make_error(fmt::format("term_to_binary: cannot encode term 0x{:x}", t.raw));
    Term hdr = box_header(t);
    switch (header_sub(hdr)) {
    case Sub::Tuple: {
        Word n = header_arity(hdr);
        if (n < 256) {
            u8(ext::SMALL_TUPLE);
            u8(uint8_t(n));
        } else {
            u8(ext::LARGE_TUPLE);
            u32(uint32_t(n));
        }
        for (Word i = n; i > 0; --i) stack_.push_back(tuple_elem(t, i - 1));
        return {};
    }
    case Sub::Float:
        float_(float_value(t));
        return {};
    case Sub::HeapBin: case Sub::RefcBin: case Sub::SubBin:
        bitstring(t);
        return {};
    case Sub::Map:
    case Sub::HashMap: {
        // OTP writes pairs in list order (vm/map.hpp): key order for a flat map, reverse
        // iteration order for a trie; with `deterministic`, key order for both.
        u8(ext::MAP);
        u32(uint32_t(map_size(t)));
        auto pairs = map_pairs(t, MapOrder::List);
        if (opts_.deterministic && !is_flat_map(t))
            std::sort(pairs.begin(), pairs.end(),
                      [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
        for (size_t i = pairs.size(); i > 0; --i) {
            stack_.push_back(pairs[i - 1].second);
            stack_.push_back(pairs[i - 1].first);
        }
        return {};
    }
    case Sub::ExtPid:
        u8(ext::NEW_PID);
        atom(ext_id_node(t));
        u32(ext_pid_id(t));
        u32(ext_pid_serial(t));
        u32(ext_id_creation(t));
        return {};
    case Sub::ExtPort:
        port_ext(ext_id_node(t), ext_id_creation(t), ext_port_number(t));
        return {};
    case Sub::Ref:
    case Sub::ExtRef: {
        Term node;
        uint32_t creation;
        if (header_sub(hdr) == Sub::Ref) self().get(node, creation);
        else node = ext_id_node(t), creation = ext_id_creation(t);
        RefIds ids = ref_ids(t);
        u8(ext::NEWER_REFERENCE);
        u16(uint16_t(ids.n));
        atom(node);
        u32(creation);
        for (size_t i = 0; i < ids.n; ++i) u32(ids.w[i]);
        return {};
    }
    case Sub::Export: {
        const Export* e = export_of(t);
        u8(ext::EXPORT);
        atom(e->module);
        atom(e->function);
        u8(ext::SMALL_INTEGER);
        u8(uint8_t(e->arity));
        return {};
    }
    case Sub::Fun:
        local_fun(t);
        return {};
    default:
        return make_error(fmt::format("term_to_binary: cannot encode object with subtag {}", int(header_sub(hdr))));
    }
}

}  // namespace

Result<size_t> encoded_size(Term t, EncodeOptions opts) {
    size_t counted = 1;  // the version byte
    Encoder enc(counted, opts);
    if (auto r = enc.run(t); !r) return r.error();
    return counted;
}

Result<void> encode_external(Term t, std::vector<uint8_t>& out, EncodeOptions opts) {
    size_t start = out.size();
    out.push_back(ext::VERSION);
    Encoder enc(out, opts);
    if (auto r = enc.run(t); !r) {
        out.resize(start);
        return r;
    }
    if (opts.compressed <= 0) return {};
    // OTP: [131, 80, uncompressed size of the body (without 131), zlib stream], kept only if
    // the whole result is smaller than the uncompressed encoding.
    size_t body = out.size() - start - 1;
    uLongf bound = compressBound(body);
    std::vector<uint8_t> packed(bound);
    if (compress2(packed.data(), &bound, out.data() + start + 1, body, std::min(opts.compressed, 9)) != Z_OK)
        return {};
    if (bound + 6 >= body + 1) return {};
    out.resize(start + 1);
    out.push_back(ext::COMPRESSED);
    for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(body >> s));
    out.insert(out.end(), packed.begin(), packed.begin() + bound);
    return {};
}

}  // namespace beam
