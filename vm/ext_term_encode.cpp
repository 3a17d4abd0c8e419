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
//
// The Encoder is a template over its sink (vm/ext_term_writer.hpp): the same code writes
// (term_to_binary) and counts (external_size). Room is made once per piece of known size
// (HEAD_ROOM at the start of each term, then ensure() before each variable-length part).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/ext_ids.hpp"
#include "vm/ext_term.hpp"
#include "vm/ext_term_tags.hpp"
#include "vm/ext_term_writer.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/term_order.hpp"

namespace beam {

namespace {

// Room made before each term: its fixed-size part (at most a tag and a 4-byte size, or the 9
// bytes of NEW_FLOAT_EXT) fits.
constexpr size_t HEAD_ROOM = 16;

// The encoder's work list: terms still to write, last on top. push_n hands out slots the
// caller fills (a tuple's elements in one go), with no initialisation and no per-push call.
class TermStack {
public:
    TermStack() : data_(static_cast<Term*>(std::malloc(INITIAL * sizeof(Term)))), cap_(INITIAL) {
        if (!data_) throw std::bad_alloc();
    }
    ~TermStack() { std::free(data_); }
    TermStack(const TermStack&) = delete;
    TermStack& operator=(const TermStack&) = delete;

    bool empty() const { return n_ == 0; }
    Term pop() { return data_[--n_]; }
    void push(Term t) { *push_n(1) = t; }
    Term* push_n(size_t k) {
        if (cap_ - n_ < k) [[unlikely]] grow(k);
        Term* p = data_ + n_;
        n_ += k;
        return p;
    }

private:
    static constexpr size_t INITIAL = 256;
    void grow(size_t k) {
        size_t cap = std::max(cap_ * 2, n_ + k);
        auto* d = static_cast<Term*>(std::realloc(data_, cap * sizeof(Term)));
        if (!d) throw std::bad_alloc();
        data_ = d;
        cap_ = cap;
    }
    Term* data_;
    size_t cap_;
    size_t n_ = 0;
};

template <class Sink>
class Encoder {
public:
    Encoder(Sink& out, const EncodeOptions& opts) : out_(out), opts_(opts) {}

    Result<void> run(Term root) {
        stack_.push(root);
        while (!stack_.empty()) {
            Term t = stack_.pop();
            if (t == SIZE_PATCH) {  // a NEW_FUN_EXT is complete: write its Size field
                size_t at = size_t(small_value(stack_.pop()));
                out_.patch_u32(at, uint32_t(out_.pos() - at));
                continue;
            }
            if (!encode_one(t)) return make_error(std::move(error_));
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
        out_.ensure(1 + 4 + 1 + 16 + 4 + 4);
        out_.u8(ext::NEW_FUN);
        size_t size_at = out_.pos();
        out_.u32(0);
        out_.u8(uint8_t(fe->fun_arity()));
        out_.raw(fe->md5, 16);
        out_.u32(fe->new_index);
        out_.u32(uint32_t(n));
        atom(fe->module);
        out_.ensure(2 * HEAD_ROOM);
        size_t index_at = out_.pos();
        integer(make_small(fe->index));
        integer(make_small(fe->old_uniq));
        if (opts_.estimate_slack) *opts_.estimate_slack += 2 * 5 - (out_.pos() - index_at);
        Term* s = stack_.push_n(n + 3);
        s[0] = make_small(SWord(size_at));
        s[1] = SIZE_PATCH;
        for (size_t i = 0; i < n; ++i) s[2 + i] = fun_free_vars(t)[n - 1 - i];
        s[n + 2] = fun_creator(t);
    }

    // An atom's name with its header; makes its own room.
    void atom(Term a) {
        if (opts_.atom_refs) {
            if (int i = opts_.atom_refs->index_of(a); i >= 0) {
                out_.ensure(2);
                out_.u8(ext::ATOM_CACHE_REF);
                out_.u8(uint8_t(i));
                return;
            }
        }
        std::string_view s = atoms_.name(a);
        const auto* text = reinterpret_cast<const uint8_t*>(s.data());
        // Latin-1 when every code point is below 256 (UTF-8 lead bytes C2/C3 only); minor
        // version 2 writes every atom in UTF-8 (erts' DFLAG_UTF8_ATOMS). An ASCII name (the
        // usual case) is the same bytes either way.
        out_.ensure(3 + s.size());
        if (opts_.minor_version < 2 && atoms_.is_ascii(a)) {
            out_.u8(ext::ATOM);
            out_.u16(uint16_t(s.size()));
            out_.raw(text, s.size());
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
            out_.u8(ext::ATOM);
            out_.u16(uint16_t(latin1.size()));
            out_.raw(reinterpret_cast<const uint8_t*>(latin1.data()), latin1.size());
        } else if (s.size() < 256) {
            out_.u8(ext::SMALL_ATOM_UTF8);
            out_.u8(uint8_t(s.size()));
            out_.raw(text, s.size());
        } else {
            out_.u8(ext::ATOM_UTF8);
            out_.u16(uint16_t(s.size()));
            out_.raw(text, s.size());
        }
    }
    const NodeIdentity& self() const { return opts_.node ? *opts_.node : not_alive_identity(); }
    void port_ext(Term node, uint32_t creation, uint64_t n) {
        constexpr uint64_t MAX_V3_PORT_NUMBER = (uint64_t{1} << 28) - 1;
        out_.u8(n > MAX_V3_PORT_NUMBER ? ext::V4_PORT : ext::NEW_PORT);
        atom(node);
        out_.ensure(12);
        if (n > MAX_V3_PORT_NUMBER) out_.u32(uint32_t(n >> 32));
        out_.u32(uint32_t(n));
        out_.u32(creation);
    }

    // Magnitude bytes, least significant first, without leading zeros.
    void big_bytes(const uint64_t* limbs, size_t n, bool negative) {
        size_t nbytes = n * 8;
        auto byte_at = [&](size_t i) { return uint8_t(limbs[i / 8] >> (8 * (i % 8))); };
        while (nbytes > 0 && byte_at(nbytes - 1) == 0) --nbytes;
        out_.ensure(6 + nbytes);
        if (nbytes < 256) {
            out_.u8(ext::SMALL_BIG);
            out_.u8(uint8_t(nbytes));
        } else {
            out_.u8(ext::LARGE_BIG);
            out_.u32(uint32_t(nbytes));
        }
        out_.u8(negative ? 1 : 0);
        if constexpr (std::endian::native == std::endian::little) {
            out_.raw(reinterpret_cast<const uint8_t*>(limbs), nbytes);  // limbs in memory are that order
        } else {
            for (size_t i = 0; i < nbytes; ++i) out_.u8(byte_at(i));
        }
    }

    // Needs HEAD_ROOM (a bignum makes its own).
    void integer(Term t) {
        if (is_small(t)) {
            int64_t v = small_value(t);
            if (v >= 0 && v <= 255) {
                out_.u8(ext::SMALL_INTEGER);
                out_.u8(uint8_t(v));
            } else if (v >= INT32_MIN && v <= INT32_MAX) {
                out_.u8(ext::INTEGER);
                out_.u32(uint32_t(int32_t(v)));
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
            out_.u8(ext::FLOAT);
            out_.bytes(reinterpret_cast<const uint8_t*>(buf), 31);
            return;
        }
        out_.u8(ext::NEW_FLOAT);
        out_.u32(uint32_t(std::bit_cast<uint64_t>(d) >> 32));
        out_.u32(uint32_t(std::bit_cast<uint64_t>(d)));
    }

    void bitstring(Term t) {
        BitView v = bit_view(t);
        size_t nbytes = (v.bit_size + 7) / 8;
        unsigned tail_bits = unsigned(v.bit_size & 7);
        out_.u8(tail_bits ? ext::BIT_BINARY : ext::BINARY);
        out_.u32(uint32_t(nbytes));
        if (tail_bits) out_.u8(uint8_t(tail_bits));
        out_.ensure(nbytes);
        if constexpr (Sink::counting) {
            out_.raw(nullptr, nbytes);
        } else if (v.byte_aligned() && !tail_bits) {
            out_.raw(v.bytes(), nbytes);
        } else {
            uint8_t* dst = out_.skip(nbytes);
            std::memset(dst, 0, nbytes);  // copy_bits keeps the bits it does not write
            if (v.byte_aligned()) std::memcpy(dst, v.bytes(), nbytes);
            else copy_bits(v.base, v.bit_offset, dst, 0, v.bit_size);
            if (tail_bits) dst[nbytes - 1] &= uint8_t(0xFF << (8 - tail_bits));
        }
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
            out_.u8(ext::STRING);
            out_.u16(uint16_t(n));
            out_.ensure(n);
            if constexpr (Sink::counting) {
                out_.raw(nullptr, n);
            } else {
                uint8_t* dst = out_.skip(n);
                for (Term q = t; is_list(q); q = tail(q)) *dst++ = uint8_t(small_value(head(q)));
            }
            return;
        }
        out_.u8(ext::LIST);
        out_.u32(uint32_t(n));
        Term* s = stack_.push_n(n + 1);
        s[0] = p;  // the tail comes last
        for (Term q = t; is_list(q); q = tail(q)) s[n--] = head(q);
    }

    // OTP writes pairs in list order (vm/map.hpp): key order for a flat map, reverse iteration
    // order for a trie; with `deterministic`, key order for both.
    void map(Term t) {
        size_t n = map_size(t);
        out_.u8(ext::MAP);
        out_.u32(uint32_t(n));
        Term* s = stack_.push_n(2 * n);
        if (is_flat_map(t)) {  // its own arrays, no copy of the pairs
            const Term* keys = flat_map_keys(t);
            const Term* values = flat_map_values(t);
            for (size_t i = 0; i < n; ++i) {
                s[2 * (n - 1 - i) + 1] = keys[i];
                s[2 * (n - 1 - i)] = values[i];
            }
            return;
        }
        auto pairs = map_pairs(t, MapOrder::List);
        if (opts_.deterministic)
            std::sort(pairs.begin(), pairs.end(),
                      [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
        for (size_t i = 0; i < n; ++i) {
            s[2 * (n - 1 - i) + 1] = pairs[i].first;
            s[2 * (n - 1 - i)] = pairs[i].second;
        }
    }

    void reference(Term t, Sub sub) {
        Term node;
        uint32_t creation;
        if (sub == Sub::Ref) self().get(node, creation);
        else node = ext_id_node(t), creation = ext_id_creation(t);
        RefIds ids = ref_ids(t);
        out_.u8(ext::NEWER_REFERENCE);
        out_.u16(uint16_t(ids.n));
        atom(node);
        out_.ensure(4 + 4 * ids.n);
        out_.u32(creation);
        for (size_t i = 0; i < ids.n; ++i) out_.u32(ids.w[i]);
    }

    void pid_ext(Term node, uint32_t id, uint32_t serial, uint32_t creation) {
        out_.u8(ext::NEW_PID);
        atom(node);
        out_.ensure(12);
        out_.u32(id);
        out_.u32(serial);
        out_.u32(creation);
    }

    // Writes `t`'s header (and all of it when it has no subterms). False, with the reason in
    // error_, for a term the format has no encoding for.
    [[nodiscard]] bool encode_one(Term t);

    Sink& out_;
    const EncodeOptions& opts_;
    const AtomTable& atoms_ = AtomTable::instance();
    TermStack stack_;
    std::string error_;
};

template <class Sink>
bool Encoder<Sink>::encode_one(Term t) {
    out_.ensure(HEAD_ROOM);
    if (is_small(t)) {
        integer(t);
        return true;
    }
    if (is_atom(t)) {
        atom(t);
        return true;
    }
    if (is_nil(t)) {
        out_.u8(ext::NIL);
        return true;
    }
    if (is_list(t)) {
        list(t);
        return true;
    }
    if (is_local_pid(t) || is_local_port(t)) {
        Term node;
        uint32_t creation;
        self().get(node, creation);
        if (is_local_port(t)) port_ext(node, creation, local_port_number(t));
        else pid_ext(node, uint32_t(pid_id(local_pid_number(t))), uint32_t(pid_serial(local_pid_number(t))), creation);
        return true;
    }
    if (!is_boxed(t)) {
        error_ = fmt::format("term_to_binary: cannot encode term 0x{:x}", t.raw);
        return false;
    }
    Term hdr = box_header(t);
    switch (header_sub(hdr)) {
    case Sub::Tuple: {
        Word n = header_arity(hdr);
        if (n < 256) {
            out_.u8(ext::SMALL_TUPLE);
            out_.u8(uint8_t(n));
        } else {
            out_.u8(ext::LARGE_TUPLE);
            out_.u32(uint32_t(n));
        }
        Term* s = stack_.push_n(n);
        const Term* elems = &tuple_elem(t, 0);
        for (Word i = 0; i < n; ++i) s[n - 1 - i] = elems[i];
        return true;
    }
    case Sub::PosBig: case Sub::NegBig:
        integer(t);
        return true;
    case Sub::Float:
        float_(float_value(t));
        return true;
    case Sub::HeapBin: case Sub::RefcBin: case Sub::SubBin:
        bitstring(t);
        return true;
    case Sub::Map: case Sub::HashMap:
        map(t);
        return true;
    case Sub::ExtPid:
        pid_ext(ext_id_node(t), ext_pid_id(t), ext_pid_serial(t), ext_id_creation(t));
        return true;
    case Sub::ExtPort:
        port_ext(ext_id_node(t), ext_id_creation(t), ext_port_number(t));
        return true;
    case Sub::Ref: case Sub::ExtRef:
        reference(t, header_sub(hdr));
        return true;
    case Sub::Export: {
        const Export* e = export_of(t);
        out_.u8(ext::EXPORT);
        atom(e->module);
        atom(e->function);
        out_.ensure(2);
        out_.u8(ext::SMALL_INTEGER);
        out_.u8(uint8_t(e->arity));
        return true;
    }
    case Sub::Fun:
        local_fun(t);
        return true;
    default:
        error_ = fmt::format("term_to_binary: cannot encode object with subtag {}", int(header_sub(hdr)));
        return false;
    }
}

// The writer of encode_external: appends to a vector, kept at its capacity while writing
// (resize, so the bytes past the end are initialised memory) and cut to the bytes written at
// the end.
class VectorWriter final : public ByteWriter {
public:
    explicit VectorWriter(std::vector<uint8_t>& v) : v_(v), start_(v.size()) { rebase(v.size(), 0); }
    ~VectorWriter() { v_.resize(pos()); }
    // Drops what this writer appended.
    void discard() { cur_ = base_ + start_; }

private:
    void grow_by(size_t n) override { rebase(pos(), n); }
    void rebase(size_t used, size_t need) {
        v_.resize(std::max({used + need, v_.size() * 2, used + 256}));
        base_ = v_.data();
        cur_ = base_ + used;
        end_ = base_ + v_.size();
    }
    std::vector<uint8_t>& v_;
    size_t start_;
};

}  // namespace

Result<void> encode_body(Term t, ByteWriter& out, const EncodeOptions& opts) {
    Encoder<ByteWriter> enc(out, opts);
    return enc.run(t);
}

Result<size_t> encoded_size(Term t, EncodeOptions opts) {
    SizeCounter counter(1);  // the version byte
    Encoder<SizeCounter> enc(counter, opts);
    if (auto r = enc.run(t); !r) return r.error();
    return counter.pos();
}

Result<void> encode_external(Term t, std::vector<uint8_t>& out, EncodeOptions opts) {
    size_t start = out.size();
    {
        VectorWriter w(out);
        w.ensure(1);
        w.u8(ext::VERSION);
        if (auto r = encode_body(t, w, opts); !r) {
            w.discard();
            return r;
        }
    }
    if (opts.compressed <= 0) return {};
    size_t body = out.size() - start - 1;
    std::vector<uint8_t> packed(compressed_bound(body));
    size_t n = compress_body(out.data() + start + 1, body, opts.compressed, packed.data());
    if (n == 0) return {};
    out.resize(start + 1);
    out.insert(out.end(), packed.begin(), packed.begin() + n);
    return {};
}

}  // namespace beam
