// Appending to a binary in a loop in linear total time (OTP's writable binaries).
#pragma once

#include <cstddef>

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

// An off-heap binary of `bytes` bytes (> HEAP_BIN_LIMIT) whose first `acc_bits` bits are `acc`;
// the caller writes the rest at refc data + acc_bits. When `acc` is the newest binary built in
// its blob and the blob has room, the bytes go right after it without copying `acc`.
Term append_to_writable(Process* p, Term acc, size_t acc_bits, size_t bytes);

// The bytes of an off-heap binary (a RefcBin term).
uint8_t* refc_bytes(Term refc_bin);

}  // namespace beam
