// Heap blocks of 4 MB and more take the pages of freed blocks instead of faulting in fresh
// ones (vm/gc_blocks.cpp, recycle_pages): the new block must be whole and writable, the moved
// pages must carry over, and a block made of moved pages must itself move again.
#include <catch2/catch.hpp>

#include "vm/gc_internal.hpp"
#include "vm/memory_stats.hpp"

using namespace beam;

namespace {

constexpr size_t MB_WORDS = (size_t(1) << 20) / sizeof(Term);

void fill(Term* b, size_t words, Word tag) {
    for (size_t i = 0; i < words; ++i) b[i] = Term{tag << 40 | i};
}

// Whether every word holds what fill wrote.
bool holds(const Term* b, size_t words, Word tag) {
    for (size_t i = 0; i < words; ++i)
        if (b[i].raw != (tag << 40 | i)) return false;
    return true;
}

// How many words of the block hold a value fill(_, _, tag) wrote somewhere.
size_t words_tagged(const Term* b, size_t words, Word tag) {
    size_t n = 0;
    for (size_t i = 0; i < words; ++i) n += (b[i].raw >> 40) == tag;
    return n;
}

}  // namespace

TEST_CASE("gc blocks: a larger block is made of the pages of freed ones", "[gc][blocks]") {
    gc::release_cached_blocks();
    Term* d1 = gc::alloc_block(5 * MB_WORDS);
    Term* d2 = gc::alloc_block(6 * MB_WORDS);
    fill(d1, 5 * MB_WORDS, 1);
    fill(d2, 6 * MB_WORDS, 2);
    gc::free_block(d1);
    gc::free_block(d2);
    size_t allocated = gc::heap_block_words_allocated();
    size_t recycled = gc::heap_block_bytes_recycled();

    // 16 MB: neither cached block holds it, so it is mapped, and both give it their pages (their
    // mappings are 6 and 8 MB, whole 2 MB granules).
    Term* b = gc::alloc_block(16 * MB_WORDS);
    CHECK(gc::heap_block_bytes_recycled() - recycled == 14 * MB_WORDS * sizeof(Term));
    CHECK(gc::heap_block_words_allocated() == allocated - 11 * MB_WORDS + 16 * MB_WORDS);
    // The pages moved with what the freed blocks held: d2 (the larger, moved first) under the
    // new block's header, d1 after it, every word of both.
    CHECK(words_tagged(b, 16 * MB_WORDS, 2) == 6 * MB_WORDS);
    CHECK(words_tagged(b, 16 * MB_WORDS, 1) == 5 * MB_WORDS);
    fill(b, 16 * MB_WORDS, 3);
    CHECK(holds(b, 16 * MB_WORDS, 3));

    // Freed, it is cached (16 MB is under the cache's bound), and a block of 40 MB takes its
    // pages in turn: three mappings (two moved, one fresh) moved granule by granule.
    gc::free_block(b);
    recycled = gc::heap_block_bytes_recycled();
    Term* c = gc::alloc_block(40 * MB_WORDS);
    CHECK(gc::heap_block_bytes_recycled() - recycled == 18 * MB_WORDS * sizeof(Term));
    CHECK(words_tagged(c, 40 * MB_WORDS, 3) == 16 * MB_WORDS);
    fill(c, 40 * MB_WORDS, 4);
    CHECK(holds(c, 40 * MB_WORDS, 4));
    gc::free_block(c);
    gc::release_cached_blocks();
}

TEST_CASE("gc blocks: a block the cache holds is reused whole, not taken apart", "[gc][blocks]") {
    gc::release_cached_blocks();
    Term* a = gc::alloc_block(6 * MB_WORDS);
    gc::free_block(a);
    size_t recycled = gc::heap_block_bytes_recycled();
    Term* b = gc::alloc_block(5 * MB_WORDS);  // the cached 6 MB block holds it
    CHECK(b == a);
    CHECK(gc::heap_block_bytes_recycled() == recycled);
    gc::free_block(b);
    gc::release_cached_blocks();
}

TEST_CASE("gc blocks: a block larger than the cache keeps its first 64 MB cached", "[gc][blocks]") {
    gc::release_cached_blocks();
    // 80 MB, more than the VM-wide cache's bound (64 MB): freed, its first 64 MB stay cached
    // with what they held, and the pages of the rest go back to the system.
    Term* big = gc::alloc_block(80 * MB_WORDS);
    fill(big, 80 * MB_WORDS, 5);
    size_t allocated = gc::heap_block_words_allocated();
    gc::free_block(big);
    CHECK(gc::heap_block_words_allocated() == allocated - 80 * MB_WORDS + (64 * MB_WORDS - 2));
    // The next block of that size is not held by the trimmed block (64 MB), so it is mapped and
    // takes its pages: all 64 MB of them move, with the contents of the first 64 MB less the
    // block's two header words.
    size_t recycled = gc::heap_block_bytes_recycled();
    Term* next = gc::alloc_block(80 * MB_WORDS);
    CHECK(gc::heap_block_bytes_recycled() - recycled == 64 * MB_WORDS * sizeof(Term));
    CHECK(words_tagged(next, 80 * MB_WORDS, 5) == 64 * MB_WORDS - 2);
    fill(next, 80 * MB_WORDS, 6);
    CHECK(holds(next, 80 * MB_WORDS, 6));
    gc::free_block(next);
    gc::release_cached_blocks();
}

TEST_CASE("gc blocks: a mapped block grows in place into the address space it reserves", "[gc][blocks]") {
    gc::release_cached_blocks();
    // 5 MB: a fresh mapping of 6 MB (whole granules) that reserves 24 MB.
    Term* b = gc::alloc_block(5 * MB_WORDS);
    fill(b, 5 * MB_WORDS, 7);
    size_t allocated = gc::heap_block_words_allocated();
    REQUIRE(gc::extend_block(b, 20 * MB_WORDS));
    CHECK(gc::heap_block_words_allocated() == allocated + 15 * MB_WORDS);
    CHECK(holds(b, 5 * MB_WORDS, 7));  // nothing moved
    fill(b, 20 * MB_WORDS, 8);
    CHECK(holds(b, 20 * MB_WORDS, 8));
    CHECK_FALSE(gc::extend_block(b, 30 * MB_WORDS));  // past the reserve
    CHECK(gc::heap_block_words_allocated() == allocated + 15 * MB_WORDS);
    // Freed, it holds what it grew to: a request of 20 MB takes it back from the cache.
    gc::free_block(b);
    Term* again = gc::alloc_block(20 * MB_WORDS);
    CHECK(again == b);
    gc::free_block(again);

    // A block under 4 MB reserves nothing: it holds its capacity and no more.
    Term* small = gc::alloc_block(MB_WORDS);
    CHECK(gc::extend_block(small, MB_WORDS));
    CHECK_FALSE(gc::extend_block(small, 2 * MB_WORDS));
    gc::free_block(small);
    gc::release_cached_blocks();
}
