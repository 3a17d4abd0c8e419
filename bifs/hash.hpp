// OTP's portable hash (make_hash2 in erts utils.c), the value behind erlang:phash2/1,2 and
// enif_hash(ERL_NIF_PHASH2, ...).
#pragma once

#include <cstdint>

#include "vm/term.hpp"

namespace beam {

// The full 32-bit make_hash2 value; phash2/1 keeps its low 27 bits.
uint32_t make_hash2(Term t);

}  // namespace beam
