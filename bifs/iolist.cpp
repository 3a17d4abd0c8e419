#include "bifs/iolist.hpp"

#include "vm/binary.hpp"

namespace beam {
namespace {

// Calls on_byte for each byte element and on_bits for each bitstring, in order. Lists may
// end in [] or in a bitstring (an iolist's binary tail). Bitstrings that are not whole bytes
// are accepted only when allow_bits is set.
template <class OnByte, class OnBits>
bool walk(Term t, bool allow_bits, OnByte on_byte, OnBits on_bits) {
    std::vector<Term> pending{t};
    auto accept_bits = [&](Term b) {
        if (!is_bitstring(b)) return false;
        BitView v = bit_view(b);
        if (!allow_bits && !v.whole_bytes()) return false;
        on_bits(v);
        return true;
    };
    while (!pending.empty()) {
        Term x = pending.back();
        pending.pop_back();
        while (is_list(x)) {
            Term h = head(x);
            if (is_small(h)) {
                SWord v = small_value(h);
                if (v < 0 || v > 255) return false;
                on_byte(uint8_t(v));
            } else if (is_list(h)) {
                pending.push_back(tail(x));
                x = h;
                continue;
            } else if (!is_nil(h) && !accept_bits(h)) {
                return false;
            }
            x = tail(x);
        }
        if (!is_nil(x) && !accept_bits(x)) return false;
    }
    return true;
}

}  // namespace

bool iolist_to_bytes(Term t, std::vector<uint8_t>& out) {
    return walk(
        t, false, [&](uint8_t b) { out.push_back(b); },
        [&](const BitView& v) {
            size_t n = v.byte_size();
            size_t at = out.size();
            out.resize(at + n);
            if (v.byte_aligned()) {
                if (n) std::memcpy(out.data() + at, v.bytes(), n);
            } else {
                copy_bits(v.base, v.bit_offset, out.data() + at, 0, v.bit_size);
            }
        });
}

// Its own loop, not walk's: only the total matters, so the order of the parts does not, and
// a sublist's empty tail is never put aside (iolist_size of a 2^32-leaf shared iolist makes
// 2^33 visits: binary_SUITE t_iolist_size_huge_list).
std::optional<size_t> iolist_byte_size(Term t) {
    size_t n = 0;
    std::vector<Term> pending;
    auto whole_bytes = [&](Term b) {
        if (!is_binary_obj(b)) return false;
        size_t bits = bit_view(b).bit_size;
        n += bits >> 3;
        return (bits & 7) == 0;
    };
    Term x = t;
    for (;;) {
        while (is_list(x)) {
            Term h = head(x);
            x = tail(x);
            if (is_small(h)) {
                if (uint64_t(small_value(h)) > 255) return std::nullopt;
                ++n;
            } else if (is_list(h)) {
                if (!is_nil(x)) pending.push_back(x);
                x = h;
            } else if (!is_nil(h) && !whole_bytes(h)) {
                return std::nullopt;
            }
        }
        if (!is_nil(x) && !whole_bytes(x)) return std::nullopt;
        if (pending.empty()) return n;
        x = pending.back();
        pending.pop_back();
    }
}

void BitBuffer::append_byte(uint8_t b) { append_bits(&b, 0, 8); }

void BitBuffer::append_bits(const uint8_t* src, size_t src_bit_offset, size_t nbits) {
    if (nbits == 0) return;
    bytes.resize((bits + nbits + 7) / 8, 0);
    if ((bits & 7) == 0 && (src_bit_offset & 7) == 0 && (nbits & 7) == 0) {
        std::memcpy(bytes.data() + bits / 8, src + src_bit_offset / 8, nbits / 8);
    } else {
        copy_bits(src, src_bit_offset, bytes.data(), bits, nbits);
    }
    bits += nbits;
}

bool bitlist_to_bits(Term t, BitBuffer& out) {
    return walk(
        t, true, [&](uint8_t b) { out.append_byte(b); },
        [&](const BitView& v) { out.append_bits(v.base, v.bit_offset, v.bit_size); });
}

std::string_view binary_bytes(Term bin, std::string& scratch) {
    BitView v = bit_view(bin);
    size_t n = v.byte_size();
    if (v.byte_aligned()) return {reinterpret_cast<const char*>(v.bytes()), n};
    scratch.assign(n, '\0');
    copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(scratch.data()), 0, n * 8);
    return scratch;
}

}  // namespace beam
