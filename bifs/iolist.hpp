// Walking iolists (deep lists of bytes and binaries, possibly with a binary tail) without
// recursion, so a deeply nested list cannot overflow the C stack.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vm/term.hpp"

namespace beam {

// Appends the bytes of an iolist or binary; false if `t` is not one.
bool iolist_to_bytes(Term t, std::vector<uint8_t>& out);
std::optional<size_t> iolist_byte_size(Term t);

// A growing bitstring, for list_to_bitstring/1, whose elements may be any bitstrings.
struct BitBuffer {
    std::vector<uint8_t> bytes;
    size_t bits = 0;
    void append_byte(uint8_t b);
    void append_bits(const uint8_t* src, size_t src_bit_offset, size_t nbits);
};
bool bitlist_to_bits(Term t, BitBuffer& out);

// The bytes of a binary term (whole bytes only): a view into the binary when it is byte
// aligned, else a copy in `scratch`.
std::string_view binary_bytes(Term bin, std::string& scratch);

}  // namespace beam
