#include "vm/heap.hpp"

#include <algorithm>

#include "vm/heap_offheap.hpp"

namespace beam {

namespace {
// Blocks are sized so small literals share them; an object larger than a block gets a block of
// its own, so no request is ever refused and nothing ever moves.
constexpr size_t LITERAL_BLOCK_WORDS = 4096;
constexpr size_t FIRST_BLOCK_WORDS = 64;
}  // namespace

LiteralArea::~LiteralArea() {
    offheap_release_list(offheap_);
}

Term* LiteralArea::alloc_slow(size_t words) {
    if (words == 0) words = 1;  // distinct, valid pointers even for empty requests
    if (!blocks_.empty()) {
        Block& b = blocks_.back();
        if (b.size - b.used >= words) {
            Term* p = b.words.get() + b.used;
            b.used += words;
            return p;
        }
    }
    // Blocks grow from FIRST_BLOCK_WORDS to LITERAL_BLOCK_WORDS: most areas (a message built
    // by a port, a small literal pool) need a few words.
    size_t step = blocks_.empty() ? FIRST_BLOCK_WORDS : std::min(blocks_.back().size * 2, LITERAL_BLOCK_WORDS);
    size_t size = words > step ? words : step;
    Block nb{std::unique_ptr<Term, FreeWords>(static_cast<Term*>(::operator new(size * sizeof(Term)))), size, words};
    Term* p = nb.words.get();
    if (words > step && !blocks_.empty()) {
        // Keep the partly used block last so later small requests still fill it.
        blocks_.insert(blocks_.end() - 1, std::move(nb));
    } else {
        blocks_.push_back(std::move(nb));
    }
    return p;
}

void LiteralArea::reset() {
    offheap_release_list(offheap_);
    offheap_ = nullptr;
    if (blocks_.empty()) return;
    // The last block is the largest one that filled in order; an oversized one (a single large
    // request) is not kept.
    Block keep = std::move(blocks_.back());
    blocks_.clear();
    if (keep.size <= LITERAL_BLOCK_WORDS) {
        keep.used = 0;
        blocks_.push_back(std::move(keep));
    }
}

void LiteralArea::link_offheap(Term* procbin) {
    set_offheap_next(procbin, offheap_);
    offheap_ = procbin;
}

bool LiteralArea::contains(const Term* p) const {
    for (const Block& b : blocks_) {
        if (p >= b.words.get() && p < b.words.get() + b.size) return true;
    }
    return false;
}

size_t LiteralArea::used_words() const {
    size_t n = 0;
    for (const Block& b : blocks_) n += b.used;
    return n;
}

}  // namespace beam
