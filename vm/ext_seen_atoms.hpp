// The atoms one binary_to_term has already looked up, found again by their bytes in the input.
// A term names the same few atoms many times (record tags, map keys, enum-like values), and
// each lookup in the atom table built a std::string, hashed it and compared it: about 300
// instructions an atom, a sixth of decoding bench/real/real_ext_term.erl's term. A hit here
// compares the first 8 bytes as one word (and the rest, rarely, with memcmp against the
// earlier occurrence, which stays in the input for the whole decode).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "vm/term.hpp"

namespace beam {

class SeenAtoms {
public:
    // An atom name of n bytes at p, with `readable` bytes of input from p on (n at least).
    struct Key {
        const uint8_t* p;
        size_t n;
        bool utf8;
        uint64_t head;  // the first min(n, 8) bytes, zero-padded
    };
    static Key key(const uint8_t* p, size_t n, size_t readable, bool utf8) {
        uint64_t w = 0;
        if (std::endian::native == std::endian::little && readable >= 8) {
            std::memcpy(&w, p, 8);  // one load; the bytes past the name are masked off
            if (n < 8) w &= (uint64_t{1} << (8 * n)) - 1;
        } else {
            for (size_t i = 0; i < std::min<size_t>(n, 8); ++i) w |= uint64_t(p[i]) << (8 * i);
        }
        return {p, n, utf8, w};
    }

    // The atom an earlier lookup of the same name, in the same encoding, answered; NON_VALUE
    // if none is remembered.
    Term find(const Key& k) const {
        const Slot& s = slots_[slot_of(k)];
        if (s.head != k.head || s.n != k.n || s.utf8 != k.utf8 || !s.p) return NON_VALUE;
        if (k.n > 8 && std::memcmp(s.p + 8, k.p + 8, k.n - 8) != 0) return NON_VALUE;
        return s.atom;
    }
    // Remembers `atom` for this name (whose bytes must outlive this object), replacing the
    // slot's previous one.
    void add(const Key& k, Term atom) { slots_[slot_of(k)] = {k.p, k.head, uint32_t(k.n), k.utf8, atom}; }

private:
    // Direct-mapped: a handful of distinct atoms is the usual term; a collision only costs a
    // lookup in the atom table.
    static constexpr unsigned BITS = 5;
    static size_t slot_of(const Key& k) {
        uint64_t w = k.head ^ uint64_t(k.n) << 56 ^ uint64_t(k.utf8) << 55;
        return size_t((w * 0x9E3779B97F4A7C15u) >> (64 - BITS));
    }
    struct Slot {
        const uint8_t* p = nullptr;
        uint64_t head = 0;
        uint32_t n = 0;
        bool utf8 = false;
        Term atom;
    };
    std::array<Slot, size_t{1} << BITS> slots_{};
};

}  // namespace beam
