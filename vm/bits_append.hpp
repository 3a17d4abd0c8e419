// Appending to a binary in a loop in linear total time (OTP's writable binaries).
#pragma once

#include <cstddef>

#include "vm/binary.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

// An off-heap binary of `bytes` bytes (> HEAP_BIN_LIMIT) whose first `acc_bits` bits are `acc`;
// the caller writes the rest at refc data + acc_bits. When `acc` is the newest binary built in
// its blob and the blob has room, the bytes go right after it without copying `acc`.
Term append_to_writable(Process* p, Term acc, size_t acc_bits, size_t bytes);

// The bytes of an off-heap binary (a RefcBin term).
uint8_t* refc_bytes(Term refc_bin);

// Reductions for copying `bits` bits of binary data: one per 8 KB.
inline void charge_copy(Process* p, size_t bits) { p->reductions += int64_t(bits / (8 * 1024)); }

// A constructed bitstring of `total` bits: `write(data)` fills its bytes and returns the bits
// it copied from binaries (charged); one that does not end on a byte boundary is a
// sub-binary of the bytes. The unused bits of the last byte read as zero.
template <class Write>
Term new_bitstring(Process* p, size_t total, Write write) {
    uint8_t* data;
    size_t bytes = (total + 7) / 8;
    Term bin = make_binary_uninit(*p, bytes, &data);
    if (bytes) data[bytes - 1] = 0;
    charge_copy(p, write(data));
    return total % 8 != 0 ? make_sub_binary(*p, bin, 0, total) : bin;
}

// bs_create_bin's result once its `total` bits are known (both the general path and the fast
// one). An append (`acc`, the accumulator, `acc_bits` long; NON_VALUE when the instruction is
// not an append) whose result is past HEAP_BIN_LIMIT bytes extends the accumulator in place
// when it can (append_to_writable), and write(1, data, acc_bits) writes the segments after
// it; a result that does not end on a byte boundary is a sub-binary of those bytes. Anything
// else is a new bitstring, written by write(0, data, 0). `write` returns the bits it copied
// from binaries.
template <class Write>
Term created_binary(Process* p, Term acc, size_t acc_bits, size_t total, Write write) {
    size_t bytes = (total + 7) / 8;
    if (is_value(acc) && bytes > HEAP_BIN_LIMIT) {
        Term bin = append_to_writable(p, acc, acc_bits, bytes);
        // The accumulator may have moved into the new blob: its own data is not read again.
        charge_copy(p, write(1, refc_bytes(bin), acc_bits));
        return total % 8 != 0 ? make_sub_binary(*p, bin, 0, total) : bin;
    }
    return new_bitstring(p, total, [&](uint8_t* data) { return write(0, data, 0); });
}

}  // namespace beam
