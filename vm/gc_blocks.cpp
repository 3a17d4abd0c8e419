// Heap blocks (young and old generations) and the per-thread cache that recycles them.
//
// Why a cache: every collection allocates a to-space and frees the from-space. Blocks of a
// few MB go straight to mmap/munmap in glibc, so each collection paid page faults and the
// kernel's page clearing for the whole new block (a profile of tests/stress/gc_10gb.erl
// showed clear_page_erms + exc_page_fault above 15% of the run). A freed block is kept here
// and handed to the next collection that asks for a similar size, its pages already mapped.
//
// Each block carries its capacity in the word before the words handed out, so a block can be
// recycled for a smaller request and freed without the caller remembering its size.
//
// Bounds: at most CACHE_BLOCKS blocks and CACHE_WORDS words per scheduler thread; a request
// takes a cached block only if that wastes at most half the request, so the resident tail of
// a recycled block stays small. The cache is per thread (no locks); a process that moves to
// another scheduler simply allocates from that thread's cache.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

#include "vm/gc_internal.hpp"
#include "vm/memory_stats.hpp"
#include "vm/process_side_memory.hpp"

namespace beam::gc {

namespace {

constexpr size_t CACHE_BLOCKS = 4;
constexpr size_t CACHE_WORDS = size_t(6) << 20;  // 48 MB per thread

// Blocks from this size on are mapped directly rather than taken from malloc. glibc serves
// blocks under its (adaptive, up to 32 MB) mmap threshold from the brk heap, where freed
// blocks of varying sizes fragmented it: gc_10gb's peak RSS grew with the number of rounds
// (110 MB at 40, 200 MB at 400). A mapping is returned to the system when freed.
constexpr size_t MAP_MIN_WORDS = size_t(32) << 10;  // 256 KB

// Blocks from this size on ask for transparent huge pages (granted when the system's THP mode
// is "madvise" or "always"; this machine's is "madvise"): a large heap read at random, a map
// of 100,000 keys say, otherwise misses the TLB at most accesses, and each 4 KB page costs a
// fault when first written.
constexpr size_t HUGE_MIN_WORDS = size_t(512) << 10;  // 4 MB

// Words of heap blocks that exist (in use or cached) and that processes hold, for
// erlang:memory/0,1 (vm/memory_stats.hpp). Relaxed: statistics only.
std::atomic<size_t> words_allocated{0};
std::atomic<size_t> words_in_use{0};

Term* base_of(Term* words) { return words - 1; }
size_t capacity_of(Term* words) { return size_t(words[-1].raw); }
size_t mapped_bytes(size_t words) { return (words + 1) * sizeof(Term); }

Term* raw_alloc(size_t words) {
    void* m;
    if (words >= MAP_MIN_WORDS) {
        m = mmap(nullptr, mapped_bytes(words), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::bad_alloc();
        if (words >= HUGE_MIN_WORDS) madvise(m, mapped_bytes(words), MADV_HUGEPAGE);
    } else {
        m = std::malloc((words + 1) * sizeof(Term));
        if (!m) throw std::bad_alloc();
    }
    Term* base = static_cast<Term*>(m);
    base[0] = Term{Word(words)};
    words_allocated.fetch_add(words, std::memory_order_relaxed);
    return base + 1;
}

void raw_free(Term* block) {
    size_t words = capacity_of(block);
    words_allocated.fetch_sub(words, std::memory_order_relaxed);
    if (words >= MAP_MIN_WORDS) munmap(base_of(block), mapped_bytes(words));
    else std::free(base_of(block));
}

class BlockCache {
public:
    BlockCache() = default;
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    ~BlockCache() {
        for (size_t i = 0; i < count_; ++i) raw_free(blocks_[i]);
    }

    // The smallest cached block holding `words` without wasting more than half of them.
    Term* take(size_t words) {
        size_t best = count_;
        for (size_t i = 0; i < count_; ++i) {
            size_t cap = capacity_of(blocks_[i]);
            if (cap < words || cap - words > words / 2) continue;
            if (best == count_ || cap < capacity_of(blocks_[best])) best = i;
        }
        if (best == count_) {
            release_smaller_than(words);
            return nullptr;
        }
        Term* b = blocks_[best];
        total_ -= capacity_of(b);
        std::copy(blocks_ + best + 1, blocks_ + count_, blocks_ + best);
        --count_;
        return b;
    }

    // Keeps `b` for reuse; when full, the blocks cached longest go first. (Evicting the
    // smallest instead let one big block from a past phase, which no request fitted any more,
    // hold the cache: qsort of 200,000 integers then mapped and unmapped a 16 MB block at
    // every collection, a fifth of its run time in the kernel.)
    void put(Term* b) {
        size_t cap = capacity_of(b);
        if (cap > CACHE_WORDS) {
            raw_free(b);
            return;
        }
        while (count_ > 0 && (count_ == CACHE_BLOCKS || total_ + cap > CACHE_WORDS)) {
            total_ -= capacity_of(blocks_[0]);
            raw_free(blocks_[0]);
            std::copy(blocks_ + 1, blocks_ + count_, blocks_);
            --count_;
        }
        blocks_[count_++] = b;
        total_ += cap;
    }

private:
    // A miss for a bigger block than those cached (a heap growing, a full sweep's block) frees
    // them before the new block is mapped: the peak footprint is reached at such moments, and
    // gc_10gb's peak RSS went from 130 to 220 MB while the cache kept them through full sweeps.
    void release_smaller_than(size_t words) {
        for (size_t i = 0; i < count_;) {
            if (capacity_of(blocks_[i]) >= words) {
                ++i;
                continue;
            }
            total_ -= capacity_of(blocks_[i]);
            raw_free(blocks_[i]);
            std::copy(blocks_ + i + 1, blocks_ + count_, blocks_ + i);
            --count_;
        }
    }

    Term* blocks_[CACHE_BLOCKS] = {};
    size_t count_ = 0;
    size_t total_ = 0;
};

thread_local BlockCache t_cache;

}  // namespace

Term* alloc_block(size_t words) {
    if (words == 0) words = 1;
    Term* b = t_cache.take(words);
    if (!b) b = raw_alloc(words);
    words_in_use.fetch_add(capacity_of(b), std::memory_order_relaxed);
    return b;
}

Term* alloc_fresh_block(size_t words) {
    Term* b = raw_alloc(words == 0 ? 1 : words);
    words_in_use.fetch_add(capacity_of(b), std::memory_order_relaxed);
    return b;
}

void free_block(Term* block) {
    if (!block) return;
    words_in_use.fetch_sub(capacity_of(block), std::memory_order_relaxed);
    t_cache.put(block);
}

size_t heap_block_words_allocated() { return words_allocated.load(std::memory_order_relaxed); }
size_t heap_block_words_in_use() { return words_in_use.load(std::memory_order_relaxed); }

}  // namespace beam::gc

namespace beam {

namespace {
std::atomic<size_t> side_bytes{0};
}  // namespace

void count_process_side_bytes(std::ptrdiff_t bytes) {
    side_bytes.fetch_add(size_t(bytes), std::memory_order_relaxed);  // wraps back for negatives
}
size_t process_side_bytes() { return side_bytes.load(std::memory_order_relaxed); }

}  // namespace beam
