// put_map_assoc / put_map_exact, and maps built with constant keys (new_map_lit).
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

namespace beam {

Term put_map(Process* p, Term src, bool exact, const Word* kv, Word n, Term* x) {
    Term* E = p->stop;
    if (!is_map(src)) return p->error2(am::badmap, src);
    if (exact && n == 1 && !is_flat_map(src)) {
        // One key into a trie: one path copy, whose size tells whether the key was there.
        Term k = any_operand(kv[0], x, E);
        Term m = map_put(*p, src, k, any_operand(kv[1], x, E));
        if (map_size(m) != map_size(src)) return p->error2(am::badkey, k);
        return m;
    }
    if (exact) {
        // erts checks the keys in its sorted order (its loader sorts them): of several
        // missing keys the least in map key order is the one reported.
        Term missing = NON_VALUE;
        for (Word i = 0; i < n; ++i) {
            Term k = any_operand(kv[2 * i], x, E);
            if (!map_get(src, k) && (is_non_value(missing) || compare_terms_exact(k, missing) < 0)) missing = k;
        }
        if (is_value(missing)) return p->error2(am::badkey, missing);
        if (is_flat_map(src)) {
            // Same keys: reuse the key tuple and only write the new values.
            size_t size = map_size(src);
            Term* hp = p->alloc(flat_map_words(size));
            hp[0] = box_header(src);
            hp[1] = map_keys_tuple(src);
            std::copy(flat_map_values(src), flat_map_values(src) + size, hp + 2);
            Term m = make_boxed(hp);
            for (Word i = 0; i < n; ++i) {
                Term k = any_operand(kv[2 * i], x, E);
                const Term* slot = map_get(m, k);
                *const_cast<Term*>(slot) = any_operand(kv[2 * i + 1], x, E);
            }
            return m;
        }
    } else if (is_flat_map(src) && n > 1) {
        // The new pairs sorted once and merged into the map's sorted keys (a literal #{...}
        // with many keys lands here).
        std::vector<std::pair<Term, Term>> pairs;
        pairs.reserve(n);
        for (Word i = 0; i < n; ++i) pairs.push_back({any_operand(kv[2 * i], x, E), any_operand(kv[2 * i + 1], x, E)});
        return map_put_many(*p, src, std::move(pairs));
    }
    // One key into a flat map (an insertion in place of the sorted keys), or a trie (each key
    // a path copy of a few small nodes).
    Term m = src;
    for (Word i = 0; i < n; ++i) m = map_put(*p, m, any_operand(kv[2 * i], x, E), any_operand(kv[2 * i + 1], x, E));
    return m;
}

Term new_map_lit(Process* p, Term keys, const Word* values, Word n, Term* x) {
    Term* E = p->stop;
    Term* hp = p->alloc(flat_map_words(n));
    hp[0] = make_header(Sub::Map, n + 1);
    hp[1] = keys;
    for (Word i = 0; i < n; ++i) hp[2 + i] = any_operand(values[i], x, E);
    return make_boxed(hp);
}

}  // namespace beam
