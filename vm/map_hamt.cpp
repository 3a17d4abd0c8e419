// The hash array mapped trie behind maps above 32 keys (layout: vm/map.hpp). Updates copy the
// path from the head to the changed slot and share everything else, as OTP's do, and keep the
// shape canonical, so a map's structure, printed form and iteration order depend only on its
// keys and never on the order of the operations that built it.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "vm/map.hpp"
#include "vm/fatal_error.hpp"
#include "vm/map_hash.hpp"
#include "vm/term_order.hpp"

namespace beam::hamt {

namespace {

// A hash can only be exhausted by two keys that are not =:= yet hash alike at every salt; the
// hash mixes every significant word, so this depth means a bug, not data.
constexpr unsigned MAX_LEVEL = 8 * 16;

[[noreturn]] void hash_exhausted() {
    fatal_error("map trie: two distinct keys hash alike at every level");
}

// The key's hash positioned for `level`: its slot there is the low 4 bits (OTP's
// hashmap_restore_hash).
uint32_t hash_at(Term key, unsigned level) { return map_key_hash(key, level / 8) >> (4 * (level % 8)); }

// Moves a positioned hash one level down (OTP's hashmap_shift_hash): a fresh salted hash every
// 8 levels, once the 32 bits are used up.
uint32_t shift_hash(Term key, uint32_t hx, unsigned new_level) {
    if (new_level >= MAX_LEVEL) hash_exhausted();
    return new_level % 8 ? hx >> 4 : map_key_hash(key, new_level / 8);
}

inline uint32_t slot_index(uint32_t bitmap, uint32_t slot) {
    return popcount16(bitmap & ((uint32_t{1} << slot) - 1));
}

Term leaf(TermAllocator& a, Term key, Term value) { return cons_at(a.alloc(2), key, value); }

// A node with room for `n` children, which the caller writes at the returned pointer.
Term* new_node(TermAllocator& a, bool head, uint32_t bitmap, size_t size, size_t n, Term* node) {
    size_t extra = head ? 2 : 1;
    Term* hp = a.alloc(1 + extra + n);
    hp[0] = make_header(Sub::HashMap, extra + n);
    hp[1] = make_small(SWord(bitmap | (head ? HAMT_HEAD_FLAG : 0)));
    if (head) hp[2] = make_small(SWord(size));
    *node = make_boxed(hp);
    return hp + 1 + extra;
}

Term alloc_node(TermAllocator& a, bool head, uint32_t bitmap, size_t size, const Term* children, size_t n) {
    Term node;
    std::copy(children, children + n, new_node(a, head, bitmap, size, n, &node));
    return node;
}

// A copy of `node` with child `idx` replaced, inserted (bit set in `bitmap`) or dropped.
enum class Edit { Replace, Insert, Drop };
Term edit_node(TermAllocator& a, Term node, Edit edit, uint32_t slot, Term child, size_t size) {
    size_t n = hamt_child_count(node);
    uint32_t bitmap = hamt_bitmap(node);
    uint32_t idx = slot_index(bitmap, slot);
    if (edit == Edit::Insert) bitmap |= uint32_t{1} << slot;
    if (edit == Edit::Drop) bitmap &= ~(uint32_t{1} << slot);
    size_t m = edit == Edit::Insert ? n + 1 : edit == Edit::Drop ? n - 1 : n;
    Term copy;
    Term* ch = new_node(a, hamt_is_head(node), bitmap, size, m, &copy);
    const Term* old = hamt_children(node);  // after the allocation (it never moves `node`)
    if (edit == Edit::Replace) {
        std::copy(old, old + n, ch);
        ch[idx] = child;
    } else if (edit == Edit::Insert) {
        std::copy(old, old + idx, ch);
        ch[idx] = child;
        std::copy(old + idx, old + n, ch + idx + 1);
    } else {
        std::copy(old, old + idx, ch);
        std::copy(old + idx + 1, old + n, ch + idx);
    }
    return copy;
}

// The smallest subtree at `level` that holds two leaves whose positioned hashes are h1, h2.
Term pair_subtree(TermAllocator& a, Term leaf1, uint32_t h1, Term leaf2, uint32_t h2, unsigned level) {
    uint32_t s1 = h1 & 15, s2 = h2 & 15;
    if (s1 != s2) {
        Term ch[2] = {s1 < s2 ? leaf1 : leaf2, s1 < s2 ? leaf2 : leaf1};
        return alloc_node(a, false, (uint32_t{1} << s1) | (uint32_t{1} << s2), 0, ch, 2);
    }
    unsigned next = level + 1;
    Term sub = pair_subtree(a, leaf1, shift_hash(head(leaf1), h1, next), leaf2, shift_hash(head(leaf2), h2, next), next);
    return alloc_node(a, false, uint32_t{1} << s1, 0, &sub, 1);
}

struct Item {
    Term key, value;
    uint32_t hx;  // positioned for the level being built
};

Term build(TermAllocator& a, Item* items, size_t n, unsigned level, bool head, std::vector<Item>& scratch) {
    if (level >= MAX_LEVEL) hash_exhausted();
    if (level % 8 == 0 && level > 0)
        for (size_t i = 0; i < n; ++i) items[i].hx = map_key_hash(items[i].key, level / 8);
    // Stable counting sort on this level's slot.
    std::array<size_t, 17> start{};
    for (size_t i = 0; i < n; ++i) ++start[(items[i].hx & 15) + 1];
    for (size_t s = 0; s < 16; ++s) start[s + 1] += start[s];
    scratch.resize(std::max(scratch.size(), n));
    std::array<size_t, 16> fill;
    std::copy(start.begin(), start.begin() + 16, fill.begin());
    for (size_t i = 0; i < n; ++i) scratch[fill[items[i].hx & 15]++] = items[i];
    std::copy(scratch.begin(), scratch.begin() + n, items);

    std::array<Term, 16> ch;
    size_t nch = 0;
    uint32_t bitmap = 0;
    for (uint32_t s = 0; s < 16; ++s) {
        size_t lo = start[s], hi = start[s + 1];
        if (lo == hi) continue;
        bitmap |= uint32_t{1} << s;
        if (hi - lo == 1) {
            ch[nch++] = leaf(a, items[lo].key, items[lo].value);
            continue;
        }
        for (size_t i = lo; i < hi; ++i) items[i].hx >>= 4;  // meaningless at a salt boundary: recomputed
        ch[nch++] = build(a, items + lo, hi - lo, level + 1, false, scratch);
    }
    return alloc_node(a, head, bitmap, n, ch.data(), nch);
}

Term put_rec(TermAllocator& a, Term node, Term key, Term value, uint32_t hx, unsigned level, size_t size,
             bool* grew) {
    uint32_t slot = hx & 15;
    uint32_t bitmap = hamt_bitmap(node);
    if (!(bitmap & (uint32_t{1} << slot))) {
        *grew = true;
        return edit_node(a, node, Edit::Insert, slot, leaf(a, key, value), size + 1);
    }
    Term c = hamt_children(node)[slot_index(bitmap, slot)];
    Term replacement;
    if (is_list(c)) {
        if (eq_exact(head(c), key)) {
            if (tail(c) == value) return node;
            replacement = leaf(a, key, value);
        } else {
            *grew = true;
            unsigned next = level + 1;
            replacement = pair_subtree(a, c, hash_at(head(c), next), leaf(a, key, value), shift_hash(key, hx, next), next);
        }
    } else {
        replacement = put_rec(a, c, key, value, shift_hash(key, hx, level + 1), level + 1, 0, grew);
        if (replacement == c) return node;
    }
    return edit_node(a, node, Edit::Replace, slot, replacement, size + (*grew ? 1 : 0));
}

// What removing a key did to a subtree.
struct Removed {
    enum Kind { Absent, Gone, Became } kind;
    Term term;  // Became: the new subtree (a node or a lone leaf)
};

Removed remove_rec(TermAllocator& a, Term node, Term key, uint32_t hx, unsigned level, size_t size) {
    bool head_node = hamt_is_head(node);
    uint32_t slot = hx & 15;
    uint32_t bitmap = hamt_bitmap(node);
    if (!(bitmap & (uint32_t{1} << slot))) return {Removed::Absent, NIL};
    uint32_t idx = slot_index(bitmap, slot);
    Term c = hamt_children(node)[idx];
    Removed sub;
    if (is_list(c)) {
        if (!eq_exact(head(c), key)) return {Removed::Absent, NIL};
        sub = {Removed::Gone, NIL};
    } else {
        sub = remove_rec(a, c, key, shift_hash(key, hx, level + 1), level + 1, 0);
        if (sub.kind == Removed::Absent) return sub;
    }
    size_t n = hamt_child_count(node);
    if (sub.kind == Removed::Gone) {
        // A node left with one leaf hands the leaf up to its parent (canonical shape).
        if (!head_node) {
            if (n == 1) return {Removed::Gone, NIL};
            if (n == 2) {
                Term other = hamt_children(node)[1 - idx];
                if (is_list(other)) return {Removed::Became, other};
            }
        }
        return {Removed::Became, edit_node(a, node, Edit::Drop, slot, NIL, size - 1)};
    }
    // The child shrank; if it shrank to a lone leaf and it was our only child, pass it up too.
    if (!head_node && n == 1 && is_list(sub.term)) return sub;
    return {Removed::Became, edit_node(a, node, Edit::Replace, slot, sub.term, size - 1)};
}

}  // namespace

const Term* get(Term node, Term key) {
    uint32_t hx = map_key_hash(key, 0);
    for (unsigned level = 0;;) {
        uint32_t slot = hx & 15;
        uint32_t bitmap = hamt_bitmap(node);
        if (!(bitmap & (uint32_t{1} << slot))) return nullptr;
        Term c = hamt_children(node)[slot_index(bitmap, slot)];
        if (is_list(c)) return eq_exact(head(c), key) ? &tail(c) : nullptr;
        node = c;
        ++level;
        hx = shift_hash(key, hx, level);
    }
}

Term from_pairs(TermAllocator& a, std::vector<std::pair<Term, Term>>& pairs) {
    std::vector<Item> items;
    items.reserve(pairs.size());
    for (const auto& [k, v] : pairs) items.push_back({k, v, map_key_hash(k, 0)});
    std::vector<Item> scratch;
    return build(a, items.data(), items.size(), 0, true, scratch);
}

Term put(TermAllocator& a, Term head, Term key, Term value) {
    bool grew = false;
    return put_rec(a, head, key, value, map_key_hash(key, 0), 0, hamt_size(head), &grew);
}

Term remove(TermAllocator& a, Term head, Term key) {
    Removed r = remove_rec(a, head, key, map_key_hash(key, 0), 0, hamt_size(head));
    return r.kind == Removed::Absent ? head : r.term;
}

}  // namespace beam::hamt
