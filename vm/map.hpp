// Maps.
//   Flat map [hdr Map arity=1+N][keys: tuple of N keys][v1]...[vN]
// Keys are kept sorted in map-key order (compare_terms_exact), which is the iteration and
// printing order OTP uses for maps up to 32 keys. Above 32 keys OTP switches to a hash trie
// (Sub::HashMap, reserved); until that exists, large maps stay flat (docs/architecture.md).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

inline bool is_flat_map(Term t) { return is_boxed_sub(t, Sub::Map); }
inline size_t map_size(Term m) { return header_arity(box_header(m)) - 1; }
inline Term map_keys_tuple(Term m) { return boxed_ptr(m)[1]; }
inline Term* map_keys(Term m) { return tuple_elems(map_keys_tuple(m)); }
inline Term* map_values(Term m) { return boxed_ptr(m) + 2; }
inline size_t flat_map_words(size_t n) { return 2 + n; }

// Returns a pointer to the value stored under `key` (=:= match), or nullptr.
const Term* map_get(Term map, Term key);
// Builds a map from key/value pairs; later duplicates win (as maps:from_list).
Term map_from_pairs(TermAllocator& a, std::vector<std::pair<Term, Term>> pairs);
// A copy of `map` with key set to value (inserting or replacing).
Term map_put(TermAllocator& a, Term map, Term key, Term value);
// A copy of `map` without key (the same map if absent).
Term map_remove(TermAllocator& a, Term map, Term key);
Term empty_map(TermAllocator& a);

}  // namespace beam
