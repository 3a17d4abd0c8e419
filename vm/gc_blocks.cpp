// Heap blocks (young and old generations) and the caches that recycle them.
//
// Why a cache: every collection allocates a to-space and frees the from-space. Blocks of a
// few MB go straight to mmap/munmap, so each collection paid page faults and the kernel's page
// clearing for the whole new block (a profile of tests/stress/gc_10gb.erl showed
// clear_page_erms + exc_page_fault above 15% of the run). A freed block is kept here and
// handed to the next collection that asks for a similar size, its pages already mapped.
//
// Each block carries its capacity in the word before the words handed out, so a block can be
// recycled for a smaller request and freed without the caller remembering its size.
//
// Two caches: small (malloc'd) blocks per thread, mapped blocks (256 KB and more) for the
// whole VM under a lock. A request takes the smallest cached block that holds it and is at
// most twice its size; a put over the bounds frees the blocks cached longest. Measured on
// OTP's compiler (20 stdlib modules with compile:file/2, one run): a per-thread cache of 4
// blocks / 48 MB mapped 840 blocks and took 245,000 page faults (12,000 per module), 16% of
// the CPU time in the kernel; the VM-wide cache of 32 blocks / 64 MB maps about 30 and takes
// 28,700 faults (1,200 per module), peak RSS 124 MB (102 before; 183 MB with a 128 MB bound,
// which saved another 5,000 faults).
//
// A growing heap asks for sizes no cached block holds. A new block of 4 MB or more is then made,
// as far as they reach, of the pages of cached blocks smaller than it (recycle_pages), and
// faults in only the rest: real_xmerl 68,955 -> 43,668 faults, real_compile 23,914 -> 15,345.
#include <algorithm>
#include "vm/fatal_error.hpp"
#include "vm/heap_ceiling.hpp"
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <new>

#include <sys/mman.h>

#include "vm/gc_internal.hpp"
#include "vm/memory_stats.hpp"
#include "vm/process_side_memory.hpp"

namespace beam::gc {

namespace {

// Cache bounds (see BlockCache). MAX_BLOCKS bounds both caches' lists.
constexpr size_t MAX_BLOCKS = 32;
constexpr size_t SMALL_CACHE_BLOCKS = 8;
constexpr size_t SMALL_CACHE_WORDS = size_t(256) << 10;      // 2 MB per thread
constexpr size_t MAPPED_CACHE_WORDS = size_t(8) << 20;      // 64 MB for the VM

// Blocks from this size on are mapped directly rather than taken from malloc. glibc serves
// blocks under its (adaptive, up to 32 MB) mmap threshold from the brk heap, where freed
// blocks of varying sizes fragmented it: gc_10gb's peak RSS grew with the number of rounds
// (110 MB at 40, 200 MB at 400). A mapping is returned to the system when freed. With
// mimalloc as the executable's malloc (gc_heap_blocks_from_malloc), blocks under
// MAP_ALWAYS_WORDS come from it instead (it reuses freed memory across threads without that
// fragmentation); they are still cached in the VM-wide cache from this size on.
constexpr size_t MAP_MIN_WORDS = size_t(32) << 10;  // 256 KB

// Blocks from this size on are always mapped (see MAP_MIN_WORDS), even with mimalloc.
//
// No block asks for transparent huge pages (MADV_HUGEPAGE), as OTP's heaps do not. They used
// to from this size on, for the TLB reach, but on the virtual machines this project runs on a
// huge page is slow to fault in unless its memory was freed moments before (most likely the
// guest reports free 2 MB pieces to the host, virtio_balloon's free page reporting, and the
// host backs them again only when they are next touched). Measured (a C program
// touching 180 MB, one run after another): 4 KB pages 72-90 ms every time; huge pages
// 17-22 ms right after a run that freed them, 350-390 ms after a pause of 3 s or more. In
// bench/real_run.sh's interleaved rounds, and at every fresh start, the pages are the slow
// kind: real_parse spent 0.15 s of 0.41 in the kernel with huge pages and 0.06 of 0.33 without,
// real_xmerl 0.23 of 0.56 and 0.15 of 0.48, real_compile 0.11 and 0.04 s. Their user times, and
// maps_bench, list_sort and qsort_lc, were the same within the spread. What 4 KB pages cost is
// a walk over a large heap: phash2 of 37,791 tokens took 4.6-4.9 ms instead of 3.9
// (docs/benchmarks.md, "Session 34").
constexpr size_t MAP_ALWAYS_WORDS = size_t(512) << 10;  // 4 MB

// Words of heap blocks that exist (in use or cached) and that processes hold, for
// erlang:memory/0,1 (vm/memory_stats.hpp). Relaxed: statistics only.
std::atomic<size_t> words_allocated{0};
std::atomic<size_t> words_in_use{0};
std::atomic<size_t> bytes_recycled{0};  // recycle_pages, for tests

// Blocks under MAP_ALWAYS_WORDS come from malloc, whatever their size (see
// gc_heap_blocks_from_malloc). A block records how it was made (MAPPED_BIT), so the setting
// may change while blocks exist.
std::atomic<bool> mid_blocks_from_malloc{false};

// The two words before a block: the length of its mapping (0 for a block from malloc), then
// its capacity and whether it was mapped (top bit).
constexpr size_t HEADER_WORDS = 2;
constexpr Word MAPPED_BIT = Word(1) << 63;
Term* base_of(Term* words) { return words - HEADER_WORDS; }
size_t capacity_of(Term* words) { return size_t(words[-1].raw & ~MAPPED_BIT); }
bool is_mapped(Term* words) { return (words[-1].raw & MAPPED_BIT) != 0; }
size_t reserved_of(Term* words) { return size_t(words[-2].raw); }
void set_header(Term* base, size_t reserved, size_t words, bool mapped) {
    base[0] = Term{Word(reserved)};
    base[1] = Term{Word(words) | (mapped ? MAPPED_BIT : 0)};
}
size_t mapped_bytes(size_t words) { return (words + HEADER_WORDS) * sizeof(Term); }

// Blocks from MAP_ALWAYS_WORDS on are mapped in whole granules, so that a freed one's pages can
// be moved into a new block (recycle_pages). The tail past the block's capacity is address
// space only unless a moved granule brings pages with it. Such a block reserves three times its
// mapping again behind it, as inaccessible address space (PROT_NONE, no pages and no commit
// charge) that extend_block maps for a young heap that grows: to about twice its live data,
// rounded up to the next size of the series, which a reserve of only twice the block missed
// (bench/gc_sweep: a block of 5.16 M words growing to 10.7 M).
constexpr size_t RESERVE_FACTOR = 4;
constexpr size_t GRANULE = size_t(2) << 20;
bool is_recyclable(size_t words) { return words >= MAP_ALWAYS_WORDS; }
size_t mapping_length(size_t words) {
    size_t b = mapped_bytes(words);
    return is_recyclable(words) ? (b + GRANULE - 1) & ~(GRANULE - 1) : b;
}

Term* take_donor(size_t max_bytes);  // below, with the VM-wide cache

// Fills the start of a fresh mapping of `length` bytes with the pages of cached blocks that a
// larger block replaces: a growing heap's new to-space would otherwise fault in every page
// (and the kernel clear it) while the pages of the smaller blocks it outgrew sit freed. mremap
// moves a page table entry instead: 40 MB in 2 MB granules took 0.15 ms against 15.5 ms of
// faults. Moved granule by granule because a block made of others is several mappings, and
// mremap moves a range within one.
void recycle_pages(char* dst, size_t length) {
    size_t off = 0;
    while (Term* d = take_donor(length - off)) {
        size_t words = capacity_of(d);
        size_t n = mapping_length(words);
        size_t reserved = reserved_of(d);  // read before its first granule moves
        char* src = reinterpret_cast<char*>(base_of(d));
        words_allocated.fetch_sub(words, std::memory_order_relaxed);
        for (size_t g = 0; g < n; g += GRANULE) {
            if (mremap(src + g, GRANULE, GRANULE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + off + g) != MAP_FAILED)
                continue;
            // Cannot happen short of the kernel's limit on mappings. Put fresh memory back where
            // the move failed, give up the rest of the donor, and stop recycling.
            munmap(src + g, reserved - g);
            void* m = mmap(dst + off + g, length - off - g, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (m == MAP_FAILED) fatal_error("heap block: could not remap a failed page move");
            return;
        }
        if (reserved > n) munmap(src + n, reserved - n);  // the donor's reserve: address space, no pages
        off += n;
        bytes_recycled.fetch_add(n, std::memory_order_relaxed);
    }
}

Term* raw_alloc(size_t words) {
    void* m;
    if (mapped_bytes(words) > allocation_ceiling_bytes()) out_of_memory("eheap_alloc", "heap", mapped_bytes(words));
    bool map = words >= MAP_ALWAYS_WORDS ||
               (words >= MAP_MIN_WORDS && !mid_blocks_from_malloc.load(std::memory_order_relaxed));
    size_t reserved = 0;
    if (map) {
        size_t length = mapping_length(words);
        m = MAP_FAILED;
        if (is_recyclable(words)) {
            reserved = RESERVE_FACTOR * length;
            void* r = mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (r != MAP_FAILED) {
                m = mmap(r, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
                if (m == MAP_FAILED) munmap(r, reserved);
            }
        }
        if (m == MAP_FAILED) {  // under 4 MB, or no room for the reserve
            reserved = length;
            m = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        }
        if (m == MAP_FAILED) out_of_memory("eheap_alloc", "heap", length);
        if (is_recyclable(words)) recycle_pages(static_cast<char*>(m), length);
    } else {
        m = std::malloc(mapped_bytes(words));
        if (!m) out_of_memory("eheap_alloc", "heap", mapped_bytes(words));
    }
    Term* base = static_cast<Term*>(m);
    set_header(base, reserved, words, map);
    words_allocated.fetch_add(words, std::memory_order_relaxed);
    return base + HEADER_WORDS;
}

void raw_free(Term* block) {
    size_t words = capacity_of(block);
    words_allocated.fetch_sub(words, std::memory_order_relaxed);
    if (is_mapped(block)) munmap(base_of(block), reserved_of(block));
    else std::free(base_of(block));
}

// A bounded list of free blocks, oldest first. Not thread-safe: see the two instances below.
class BlockCache {
public:
    BlockCache(size_t max_blocks, size_t max_words) : max_blocks_(max_blocks), max_words_(max_words) {}
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    ~BlockCache() {
        for (size_t i = 0; i < count_; ++i) raw_free(blocks_[i]);
    }

    // The smallest cached block holding `words` and at most twice that (one step of the heap
    // size series is 1.2 to 1.6 times the one before, so a block one step larger serves).
    Term* take(size_t words) {
        size_t best = count_;
        for (size_t i = 0; i < count_; ++i) {
            size_t cap = capacity_of(blocks_[i]);
            if (cap < words || cap - words > words) continue;
            if (best == count_ || cap < capacity_of(blocks_[best])) best = i;
        }
        if (best == count_) return nullptr;
        return remove(best);
    }

    // Keeps `b` for reuse. Blocks that no longer fit under the bounds are returned through
    // `evicted` (at most MAX_BLOCKS of them), the ones cached longest first, for the caller to
    // free outside any lock. (Evicting the smallest instead let one big block from a past
    // phase, which no request fitted any more, hold the cache: qsort of 200,000 integers then
    // mapped and unmapped a 16 MB block at every collection, a fifth of its run time in the
    // kernel.) Returns how many blocks it put in `evicted`.
    size_t put(Term* b, Term** evicted) {
        size_t cap = capacity_of(b);
        size_t n = 0;
        if (cap > max_words_) {
            evicted[n++] = b;
            return n;
        }
        while (count_ > 0 && (count_ == max_blocks_ || total_ + cap > max_words_)) evicted[n++] = remove(0);
        blocks_[count_++] = b;
        total_ += cap;
        return n;
    }

    // Takes every block out; returns how many it put in `out` (room for MAX_BLOCKS).
    size_t take_all(Term** out) {
        size_t n = count_;
        std::copy(blocks_, blocks_ + n, out);
        count_ = 0;
        total_ = 0;
        return n;
    }

    // The largest cached block whose pages recycle_pages can move, whole granules of at most
    // `max_bytes`, taken out of the cache; nullptr if none.
    Term* take_recyclable(size_t max_bytes) {
        size_t best = count_;
        for (size_t i = 0; i < count_; ++i) {
            size_t cap = capacity_of(blocks_[i]);
            if (!is_mapped(blocks_[i]) || !is_recyclable(cap) || mapping_length(cap) > max_bytes) continue;
            if (best == count_ || cap > capacity_of(blocks_[best])) best = i;
        }
        return best == count_ ? nullptr : remove(best);
    }

private:
    Term* remove(size_t i) {
        Term* b = blocks_[i];
        total_ -= capacity_of(b);
        std::copy(blocks_ + i + 1, blocks_ + count_, blocks_ + i);
        --count_;
        return b;
    }

    Term* blocks_[MAX_BLOCKS] = {};
    size_t count_ = 0;
    size_t total_ = 0;
    const size_t max_blocks_;
    const size_t max_words_;
};

// Small blocks (malloc'd) are cached per thread, without a lock: a process is spawned and
// exits with one, and spawn-heavy programs do that on every scheduler at once.
thread_local BlockCache t_small(SMALL_CACHE_BLOCKS, SMALL_CACHE_WORDS);

// Mapped blocks are cached for the whole VM: a process moves between schedulers, and a
// per-thread cache left the blocks a process freed on one scheduler unusable by the next
// process that grew on another (compiling 20 stdlib modules: 201 fresh mappings, 612 MB
// faulted in, with per-thread caches of 128 MB each). One lock per block of 256 KB or more is
// nothing next to the collection that asks for it.
struct SharedCache {
    std::mutex lock;
    BlockCache cache{MAX_BLOCKS, MAPPED_CACHE_WORDS};
};
SharedCache& shared() {
    static SharedCache* c = new SharedCache;  // never destroyed: threads may free blocks at exit
    return *c;
}

Term* cache_take(size_t words) {
    if (words < MAP_MIN_WORDS) return t_small.take(words);
    SharedCache& c = shared();
    std::lock_guard<std::mutex> g(c.lock);
    return c.cache.take(words);
}

Term* take_donor(size_t max_bytes) {
    SharedCache& c = shared();
    std::lock_guard<std::mutex> g(c.lock);
    return c.cache.take_recyclable(max_bytes);
}

// A mapped block larger than the whole cache keeps its first MAPPED_CACHE_WORDS words (its
// heap grew from the start, so they hold most of the pages it touched), and the pages of the
// rest go back to the system. A process whose live data is larger than the bound alternates
// between two block sizes, and every second collection used to fault in its whole to-space:
// the next large block takes these pages (recycle_pages). bench/gc_sweep.erl (100 full sweeps
// of 41 MB of live data), with evacuate inlined into the scan: 1,032,276 -> 36,120 page
// faults, 40.4 -> 13.3 ms a collection (OTP's interpreter 7.6).
Term* trim_for_cache(Term* b) {
    size_t words = capacity_of(b);
    constexpr size_t kept = MAPPED_CACHE_WORDS - HEADER_WORDS;  // with the header, whole granules
    static_assert(MAPPED_CACHE_WORDS >= MAP_ALWAYS_WORDS, "a block larger than the cache is mapped in granules");
    if (words <= MAPPED_CACHE_WORDS || !is_mapped(b)) return b;
    // The pages go; the address space stays reserved (inaccessible again), for extend_block.
    char* base = reinterpret_cast<char*>(base_of(b));
    if (mmap(base + mapped_bytes(kept), mapping_length(words) - mapped_bytes(kept), PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED)
        return b;  // kept whole: the cache passes it on to be freed
    set_header(base_of(b), reserved_of(b), kept, true);
    words_allocated.fetch_sub(words - kept, std::memory_order_relaxed);
    return b;
}

void cache_put(Term* b) {
    Term* evicted[MAX_BLOCKS + 1];
    size_t n;
    if (capacity_of(b) < MAP_MIN_WORDS) {
        n = t_small.put(b, evicted);
    } else {
        b = trim_for_cache(b);
        SharedCache& c = shared();
        std::lock_guard<std::mutex> g(c.lock);
        n = c.cache.put(b, evicted);
    }
    for (size_t i = 0; i < n; ++i) raw_free(evicted[i]);
}

}  // namespace

void release_cached_blocks() {
    Term* blocks[MAX_BLOCKS];
    size_t n = t_small.take_all(blocks);
    for (size_t i = 0; i < n; ++i) raw_free(blocks[i]);
    SharedCache& c = shared();
    {
        std::lock_guard<std::mutex> g(c.lock);
        n = c.cache.take_all(blocks);
    }
    for (size_t i = 0; i < n; ++i) raw_free(blocks[i]);
}

Term* alloc_block(size_t words) {
    if (words == 0) words = 1;
    Term* b = cache_take(words);
    if (!b) b = raw_alloc(words);
    words_in_use.fetch_add(capacity_of(b), std::memory_order_relaxed);
    return b;
}

// The old heap fills slowly, so a fresh mapping would cost memory only as it is written; but a
// cached block of the right size is resident already, and taking it saves the faults.
Term* alloc_fresh_block(size_t words) { return alloc_block(words); }

bool extend_block(Term* block, size_t words) {
    size_t cap = capacity_of(block);
    if (words <= cap) return true;
    if (!is_mapped(block) || mapping_length(words) > reserved_of(block) ||
        mapped_bytes(words) > allocation_ceiling_bytes())
        return false;
    // The new part is mapped where the reserve was, then takes the pages of cached blocks
    // first, as a new block would.
    size_t have = mapping_length(cap), need = mapping_length(words);
    if (need > have) {
        char* at = reinterpret_cast<char*>(base_of(block)) + have;
        void* m = mmap(at, need - have, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (m == MAP_FAILED) return false;
        recycle_pages(at, need - have);
    }
    set_header(base_of(block), reserved_of(block), words, true);
    words_allocated.fetch_add(words - cap, std::memory_order_relaxed);
    words_in_use.fetch_add(words - cap, std::memory_order_relaxed);
    return true;
}

void free_block(Term* block) {
    if (!block) return;
    words_in_use.fetch_sub(capacity_of(block), std::memory_order_relaxed);
    cache_put(block);
}

size_t heap_block_words_allocated() { return words_allocated.load(std::memory_order_relaxed); }
size_t heap_block_bytes_recycled() { return bytes_recycled.load(std::memory_order_relaxed); }
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

void gc_heap_blocks_from_malloc(bool on) { gc::mid_blocks_from_malloc.store(on, std::memory_order_relaxed); }

}  // namespace beam
