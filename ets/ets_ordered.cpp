#include "ets/ets_ordered.hpp"

#include <algorithm>

#include "vm/term_order.hpp"

namespace beam {

namespace {
constexpr size_t CHUNK = 128;  // chunks split at 2 * CHUNK entries
}

bool EtsOrderedIndex::less(Term a, Term b) {
    if (is_small(a) && is_small(b)) return small_value(a) < small_value(b);
    return compare_terms(a, b) < 0;
}

size_t EtsOrderedIndex::chunk_for(Term key) const {
    // the last chunk whose first key is <= key (chunk 0 for keys before every chunk)
    auto it = std::upper_bound(firsts_.begin(), firsts_.end(), key, [](Term k, Term f) { return less(k, f); });
    return it == firsts_.begin() ? 0 : size_t(it - firsts_.begin()) - 1;
}

template <class V>
static auto entry_lower(V& c, Term key) {
    return std::lower_bound(c.begin(), c.end(), key,
                            [](const EtsOrderedIndex::Entry& e, Term k) { return EtsOrderedIndex::less(e.key, k); });
}

EtsObject* EtsOrderedIndex::find(Term key) const {
    if (chunks_.empty()) return nullptr;
    const auto& c = chunks_[chunk_for(key)];
    auto it = entry_lower(c, key);
    return it != c.end() && !less(key, it->key) ? it->obj : nullptr;
}

EtsObject* EtsOrderedIndex::insert(Term key, EtsObject* o) {
    if (chunks_.empty()) {
        chunks_.emplace_back();
        chunks_.back().reserve(CHUNK);
        firsts_.push_back(key);
    }
    size_t ci = chunk_for(key);
    auto& c = chunks_[ci];
    auto it = entry_lower(c, key);
    if (it != c.end() && !less(key, it->key)) {
        EtsObject* old = it->obj;
        *it = Entry{key, o};
        if (it == c.begin()) firsts_[ci] = key;
        return old;
    }
    c.insert(it, Entry{key, o});
    firsts_[ci] = c.front().key;
    size_++;
    if (c.size() >= 2 * CHUNK) split(ci);
    return nullptr;
}

void EtsOrderedIndex::split(size_t ci) {
    std::vector<Entry> upper(chunks_[ci].begin() + CHUNK, chunks_[ci].end());
    chunks_[ci].resize(CHUNK);
    Term first = upper.front().key;
    chunks_.insert(chunks_.begin() + ci + 1, std::move(upper));
    firsts_.insert(firsts_.begin() + ci + 1, first);
}

EtsObject* EtsOrderedIndex::erase(Term key) {
    if (chunks_.empty()) return nullptr;
    size_t ci = chunk_for(key);
    auto& c = chunks_[ci];
    auto it = entry_lower(c, key);
    if (it == c.end() || less(key, it->key)) return nullptr;
    EtsObject* o = it->obj;
    c.erase(it);
    size_--;
    if (c.empty()) {
        chunks_.erase(chunks_.begin() + ci);
        firsts_.erase(firsts_.begin() + ci);
    } else {
        firsts_[ci] = c.front().key;
    }
    return o;
}

EtsOrderedIndex::Pos EtsOrderedIndex::next(Pos p) const {
    if (++p.i < chunks_[p.chunk].size()) return p;
    return Pos{p.chunk + 1, 0};
}

EtsOrderedIndex::Pos EtsOrderedIndex::last() const {
    if (chunks_.empty()) return Pos{0, 0};
    return Pos{chunks_.size() - 1, chunks_.back().size() - 1};
}

EtsOrderedIndex::Pos EtsOrderedIndex::prev(Pos p) const {
    if (p.i > 0) return Pos{p.chunk, p.i - 1};
    if (p.chunk == 0) return Pos{chunks_.size(), 0};
    return Pos{p.chunk - 1, chunks_[p.chunk - 1].size() - 1};
}

EtsOrderedIndex::Pos EtsOrderedIndex::lower_bound(Term key) const {
    if (chunks_.empty()) return Pos{0, 0};
    size_t ci = chunk_for(key);
    const auto& c = chunks_[ci];
    size_t i = size_t(entry_lower(c, key) - c.begin());
    return i < c.size() ? Pos{ci, i} : Pos{ci + 1, 0};
}

EtsOrderedIndex::Pos EtsOrderedIndex::upper_bound(Term key) const {
    Pos p = lower_bound(key);
    if (!at_end(p) && !less(key, at(p).key)) p = next(p);
    return p;
}

EtsOrderedIndex::Pos EtsOrderedIndex::nth(size_t n) const {
    for (size_t ci = 0; ci < chunks_.size(); ci++) {
        if (n < chunks_[ci].size()) return Pos{ci, n};
        n -= chunks_[ci].size();
    }
    return Pos{chunks_.size(), 0};
}

}  // namespace beam
