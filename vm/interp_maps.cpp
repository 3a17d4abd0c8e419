// put_map_assoc / put_map_exact.
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"
#include "vm/map.hpp"

namespace beam {

Term put_map(Process* p, Term src, bool exact, const Word* kv, Word n, Term* x) {
    Term* E = p->stop;
    if (!is_map(src)) return p->error2(am::badmap, src);
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(map_size(src) + n);
    for (size_t i = 0; i < map_size(src); ++i) pairs.push_back({map_keys(src)[i], map_values(src)[i]});
    for (Word i = 0; i < n; ++i) {
        Term k = any_operand(kv[2 * i], x, E), v = any_operand(kv[2 * i + 1], x, E);
        if (exact && !map_get(src, k)) return p->error2(am::badkey, k);
        pairs.push_back({k, v});
    }
    if (exact) {
        // Same keys: reuse the key tuple and only write the new values.
        size_t size = map_size(src);
        Term* hp = p->alloc(flat_map_words(size));
        hp[0] = box_header(src);
        hp[1] = map_keys_tuple(src);
        std::copy(map_values(src), map_values(src) + size, hp + 2);
        Term m = make_boxed(hp);
        for (Word i = 0; i < n; ++i) {
            Term k = any_operand(kv[2 * i], x, E);
            const Term* slot = map_get(m, k);
            *const_cast<Term*>(slot) = any_operand(kv[2 * i + 1], x, E);
        }
        return m;
    }
    return map_from_pairs(*p, std::move(pairs));
}

}  // namespace beam
