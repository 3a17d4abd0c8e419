// The hash that places a key in a map's hash trie: OTP's make_internal_hash (Jenkins mix,
// salted), taken 4 bits per trie level. It hashes the raw word of an immediate, so for small
// integers and [] it equals OTP's, and so do the trie shape and iteration order of maps keyed by
// numbers, binaries, strings, tuples and lists of those. An atom's raw word holds its index in
// the atom table, which in OTP depends on the order atoms were created since boot (checked on
// erl: 'x' is 8365 when a test module creates it); beamvm's indices differ, so maps above 32
// keys keyed by atoms (or pids, ports, refs, funs) iterate in an order of their own.
#pragma once

#include <cstdint>

#include "vm/term.hpp"

namespace beam {

// make_internal_hash(key, salt).
uint32_t internal_hash(Term key, uint32_t salt);
// OTP's make_map_hash(key, depth): depth is the trie level / 8, so every 8 levels (32 bits)
// the key is hashed again with a different salt.
uint32_t map_key_hash(Term key, unsigned depth);

}  // namespace beam
