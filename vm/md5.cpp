#include "vm/md5.hpp"

#include <cstring>

namespace beam {

namespace {
constexpr uint32_t K[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
constexpr uint8_t S[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9,  14, 20, 5, 9,
                           14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                           4,  11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
inline uint32_t rotl(uint32_t x, unsigned c) { return (x << c) | (x >> (32 - c)); }
}  // namespace

Md5::Md5() : state_{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476} {}

void Md5::block(const uint8_t* p) {
    uint32_t m[16];
    for (int i = 0; i < 16; ++i)
        m[i] = uint32_t(p[4 * i]) | uint32_t(p[4 * i + 1]) << 8 | uint32_t(p[4 * i + 2]) << 16 |
               uint32_t(p[4 * i + 3]) << 24;
    uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    // One loop per round, each unrolled, so that the round's function and message index are
    // constants: three times fewer instructions than one loop that picks them at each step.
    auto step = [&](unsigned i, uint32_t f, unsigned g) {
        uint32_t next = b + rotl(a + f + K[i] + m[g], S[i]);
        a = d;
        d = c;
        c = b;
        b = next;
    };
#pragma GCC unroll 16
    for (unsigned i = 0; i < 16; ++i) step(i, (b & c) | (~b & d), i);
#pragma GCC unroll 16
    for (unsigned i = 16; i < 32; ++i) step(i, (d & b) | (~d & c), (5 * i + 1) % 16);
#pragma GCC unroll 16
    for (unsigned i = 32; i < 48; ++i) step(i, b ^ c ^ d, (3 * i + 5) % 16);
#pragma GCC unroll 16
    for (unsigned i = 48; i < 64; ++i) step(i, c ^ (b | ~d), (7 * i) % 16);
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
}

void Md5::update(std::span<const uint8_t> data) {
    const uint8_t* p = data.data();
    size_t n = data.size();
    size_t index = (bits_ >> 3) & 63;
    bits_ += uint64_t(n) << 3;
    size_t part = 64 - index;
    size_t i = 0;
    if (n >= part) {
        std::memcpy(buffer_ + index, p, part);
        block(buffer_);
        for (i = part; i + 63 < n; i += 64) block(p + i);
        index = 0;
    }
    std::memcpy(buffer_ + index, p + i, n - i);
}

void Md5::finish(uint8_t out[16]) {
    uint8_t len_le[8];
    for (int i = 0; i < 8; ++i) len_le[i] = uint8_t(bits_ >> (8 * i));
    size_t index = (bits_ >> 3) & 63;
    static constexpr uint8_t pad[64] = {0x80};
    update({pad, index < 56 ? 56 - index : 120 - index});
    update({len_le, 8});
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) out[4 * i + j] = uint8_t(state_[i] >> (8 * j));
}

namespace {
void put32(uint8_t* out, uint32_t v) {
    for (int j = 0; j < 4; ++j) out[j] = uint8_t(v >> (8 * j));
}
uint32_t get32(const uint8_t* in) {
    return uint32_t(in[0]) | uint32_t(in[1]) << 8 | uint32_t(in[2]) << 16 | uint32_t(in[3]) << 24;
}
}  // namespace

void Md5::save(uint8_t out[CONTEXT_BYTES]) const {
    for (int i = 0; i < 4; ++i) put32(out + 4 * i, state_[i]);
    put32(out + 16, uint32_t(bits_));
    put32(out + 20, uint32_t(bits_ >> 32));
    std::memcpy(out + 24, buffer_, 64);
}

Md5 Md5::restore(const uint8_t in[CONTEXT_BYTES]) {
    Md5 m;
    for (int i = 0; i < 4; ++i) m.state_[i] = get32(in + 4 * i);
    m.bits_ = uint64_t(get32(in + 16)) | uint64_t(get32(in + 20)) << 32;
    std::memcpy(m.buffer_, in + 24, 64);
    return m;
}

}  // namespace beam
