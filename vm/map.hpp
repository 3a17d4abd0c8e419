// Maps, as OTP 25 lays them out: flat up to 32 keys, a hash array mapped trie (HAMT) above.
//
//   Flat map   [hdr Map arity=1+N][keys: tuple of N keys][v1]...[vN]
//     Keys sorted in map-key order (compare_terms_exact): OTP's iteration and printing order.
//     Maps built from the same literal or updated with := share the keys tuple.
//
//   Trie head  [hdr HashMap arity=2+n][small(bitmap | HAMT_HEAD_FLAG)][small(size)][child]...
//   Trie node  [hdr HashMap arity=1+n][small(bitmap)][child]...
//     bitmap: bit i set when slot i (4 bits of the key's hash, vm/map_hash.hpp) is in use;
//     children in ascending slot order, n = popcount(bitmap). A child is a leaf, the cons cell
//     [Key|Value], or a boxed pointer to a trie node. Every word after the header is a term
//     (the bitmap and size are small integers), so the GC and copy_term scan nodes as tuples.
//     The shape is canonical for a key set, as OTP's: a leaf sits at the first level where no
//     other key shares its slot path, and a node other than the head never has a lone leaf.
//
// Above MAP_SMALL_LIMIT keys a map is a trie; at or below it, flat (puts, removes, from_list,
// merge and binary_to_term convert at the boundary exactly as erl does).
//
// Orders. Iteration order (maps:next, maps:fold, io_lib, erlang:display's trie walk) is key
// order for a flat map and depth-first ascending slots for a trie. List order (maps:keys,
// values, to_list, term_to_binary) is key order for a flat map and the reverse of iteration
// order for a trie, because OTP builds those lists by consing while it iterates.
#pragma once

#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

inline constexpr size_t MAP_SMALL_LIMIT = 32;  // OTP's MAP_SMALL_MAP_LIMIT
inline constexpr Word HAMT_HEAD_FLAG = Word{1} << 16;

// ---- flat maps ----
inline bool is_flat_map(Term t) { return is_boxed_sub(t, Sub::Map); }
inline Term map_keys_tuple(Term m) { return boxed_ptr(m)[1]; }
inline Term* flat_map_keys(Term m) { return tuple_elems(map_keys_tuple(m)); }
inline Term* flat_map_values(Term m) { return boxed_ptr(m) + 2; }
inline size_t flat_map_words(size_t n) { return 2 + n; }
// Older names; flat maps only.
inline Term* map_keys(Term m) { return flat_map_keys(m); }
inline Term* map_values(Term m) { return flat_map_values(m); }

// ---- trie nodes ----
inline bool is_hash_map(Term t) { return is_boxed_sub(t, Sub::HashMap); }
inline Word hamt_bitmap_word(Term node) { return Word(small_value(boxed_ptr(node)[1])); }
inline bool hamt_is_head(Term node) { return (hamt_bitmap_word(node) & HAMT_HEAD_FLAG) != 0; }
inline uint32_t hamt_bitmap(Term node) { return uint32_t(hamt_bitmap_word(node) & 0xFFFF); }
inline Term* hamt_children(Term node) { return boxed_ptr(node) + (hamt_is_head(node) ? 3 : 2); }
// Bits set in a 16-bit bitmap, by two table lookups: without -mpopcnt __builtin_popcount is a
// libgcc call, and the shift-and-mask count took twice the instructions (maps_bench).
inline constexpr std::array<uint8_t, 256> POPCOUNT8 = [] {
    std::array<uint8_t, 256> t{};
    for (unsigned i = 1; i < 256; ++i) t[i] = uint8_t((i & 1) + t[i >> 1]);
    return t;
}();
inline uint32_t popcount16(uint32_t v) { return uint32_t(POPCOUNT8[v & 0xFF]) + POPCOUNT8[(v >> 8) & 0xFF]; }
inline size_t hamt_child_count(Term node) { return popcount16(hamt_bitmap(node)); }
inline size_t hamt_size(Term head) { return size_t(small_value(boxed_ptr(head)[2])); }

inline size_t map_size(Term m) { return is_flat_map(m) ? header_arity(box_header(m)) - 1 : hamt_size(m); }

// Returns a pointer to the value stored under `key` (=:= match), or nullptr.
const Term* map_get(Term map, Term key);
// Builds a map from key/value pairs; later duplicates win (as maps:from_list).
Term map_from_pairs(TermAllocator& a, std::vector<std::pair<Term, Term>> pairs);
// A copy of `map` with key set to value (inserting or replacing); `map` itself if unchanged.
Term map_put(TermAllocator& a, Term map, Term key, Term value);
// map with every pair of kvs put in it, in order (a later pair of an equal key wins).
Term map_put_many(TermAllocator& a, Term map, std::vector<std::pair<Term, Term>> kvs);
// A copy of `map` without key (the same map if absent).
Term map_remove(TermAllocator& a, Term map, Term key);
Term empty_map(TermAllocator& a);

// Walks a map's pairs in iteration order (see above) without allocating.
class MapIterator {
public:
    explicit MapIterator(Term map);
    // Sets key and value to the next pair; false when done.
    bool next(Term* key, Term* value);

private:
    struct Frame {
        const Term* children;
        uint32_t count;
        uint32_t at;
    };
    Term map_;
    size_t flat_at_ = 0;
    std::vector<Frame> stack_;
};

enum class MapOrder { Iteration, List };
std::vector<std::pair<Term, Term>> map_pairs(Term map, MapOrder order);

// Internal to vm/map*.cpp: the trie operations behind the functions above.
namespace hamt {
const Term* get(Term head, Term key);
Term from_pairs(TermAllocator& a, std::vector<std::pair<Term, Term>>& unique_pairs);
Term put(TermAllocator& a, Term head, Term key, Term value);
Term remove(TermAllocator& a, Term head, Term key);
}  // namespace hamt

}  // namespace beam
