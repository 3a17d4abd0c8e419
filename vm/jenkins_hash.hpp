// Bob Jenkins' 1996 mix (lookup2) as OTP uses it for erlang:phash2/1,2 (make_hash2) and for the
// internal hash that places map keys in the hash trie (make_internal_hash). Both must agree
// with OTP bit for bit: the first is portable and observable, the second decides the iteration
// order of maps above 32 keys. Shared here so the two hashes cannot drift apart.
#pragma once

#include "vm/term.hpp"

#include <cstddef>
#include <cstdint>

namespace beam::jenkins {

inline constexpr uint32_t HCONST = 0x9e3779b9u;  // the golden ratio
// OTP's HCONST_n is HCONST * n mod 2^32.
constexpr uint32_t hconst(unsigned n) { return HCONST * n; }

inline void mix(uint32_t& a, uint32_t& b, uint32_t& c) {
    a -= b; a -= c; a ^= (c >> 13);
    b -= c; b -= a; b ^= (a << 8);
    c -= a; c -= b; c ^= (b >> 13);
    a -= b; a -= c; a ^= (c >> 12);
    b -= c; b -= a; b ^= (a << 16);
    c -= a; c -= b; c ^= (b >> 5);
    a -= b; a -= c; a ^= (c >> 3);
    b -= c; b -= a; b ^= (a << 10);
    c -= a; c -= b; c ^= (b >> 15);
}

// OTP's UINT32_HASH_2(x, y, k) and UINT32_HASH(x, k) on the running hash h.
inline void hash2(uint32_t& h, uint32_t x, uint32_t y, uint32_t k) {
    uint32_t a = k + x, b = k + y;
    mix(a, b, h);
}
inline void hash1(uint32_t& h, uint32_t x, uint32_t k) { hash2(h, x, 0, k); }

// OTP's block_hash: bytes in 12-byte blocks, little-endian words, the length folded into c.
inline uint32_t block_hash(const uint8_t* k, size_t length, uint32_t initval) {
    uint32_t a = HCONST, b = HCONST, c = initval;
    size_t len = length;
    auto word = [](const uint8_t* p) {
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    };
    while (len >= 12) {
        a += word(k);
        b += word(k + 4);
        c += word(k + 8);
        mix(a, b, c);
        k += 12;
        len -= 12;
    }
    c += uint32_t(length);
    switch (len) {  // the low byte of c holds the length
    case 11: c += uint32_t(k[10]) << 24; [[fallthrough]];
    case 10: c += uint32_t(k[9]) << 16; [[fallthrough]];
    case 9: c += uint32_t(k[8]) << 8; [[fallthrough]];
    case 8: b += uint32_t(k[7]) << 24; [[fallthrough]];
    case 7: b += uint32_t(k[6]) << 16; [[fallthrough]];
    case 6: b += uint32_t(k[5]) << 8; [[fallthrough]];
    case 5: b += k[4]; [[fallthrough]];
    case 4: a += uint32_t(k[3]) << 24; [[fallthrough]];
    case 3: a += uint32_t(k[2]) << 16; [[fallthrough]];
    case 2: a += uint32_t(k[1]) << 8; [[fallthrough]];
    case 1: a += k[0];
    }
    mix(a, b, c);
    return c;
}

// Folds a bitstring into h (OTP's hashing of binaries in phash2 and the map hash).
void hash_bitstring(uint32_t& h, Term bin);

}  // namespace beam::jenkins
