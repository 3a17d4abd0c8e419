// The index of an ordered_set table: (key, object) entries in term order (== on keys), kept in
// a list of sorted chunks of at most 2 * CHUNK entries. Lookups binary-search the chunks' first
// keys (one contiguous array) and then one chunk; a walk reads chunks front to back. Compared
// with a node-per-entry tree this touches a few cache lines per lookup instead of one per level,
// and takes 2 words per entry. Not thread-safe: the table's lock covers it.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "vm/term.hpp"

namespace beam {

struct EtsObject;

class EtsOrderedIndex {
public:
    struct Entry {
        Term key;  // points into `obj`
        EtsObject* obj;
    };
    // A position: chunk and index inside it; chunk == chunk_count() is the end.
    struct Pos {
        size_t chunk = 0, i = 0;
    };

    size_t size() const { return size_; }
    EtsObject* find(Term key) const;
    // Adds `o` under `key`, or puts it in place of the object with an equal key and returns that.
    EtsObject* insert(Term key, EtsObject* o);
    EtsObject* erase(Term key);  // the removed object, or null
    template <class F>
    void clear(F&& free_obj) {
        for (auto& c : chunks_)
            for (Entry& e : c) free_obj(e.obj);
        chunks_.clear();
        firsts_.clear();
        size_ = 0;
    }

    Pos begin() const { return Pos{0, 0}; }
    bool at_end(Pos p) const { return p.chunk >= chunks_.size(); }
    const Entry& at(Pos p) const { return chunks_[p.chunk][p.i]; }
    Pos next(Pos p) const;
    // The last position, or end when empty; prev of the first position is end.
    Pos last() const;
    Pos prev(Pos p) const;
    Pos lower_bound(Term key) const;  // first entry >= key
    Pos upper_bound(Term key) const;  // first entry > key
    Pos nth(size_t n) const;          // end when n >= size()

    static bool less(Term a, Term b);

private:
    size_t chunk_for(Term key) const;  // the chunk that would hold `key`
    void split(size_t c);

    std::vector<std::vector<Entry>> chunks_;
    std::vector<Term> firsts_;  // each chunk's first key (copies of the Term word)
    size_t size_ = 0;
};

}  // namespace beam
