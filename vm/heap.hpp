// Where terms are built. A process heap, a module's literal area, or a scratch area for
// a message all hand out words through this one interface, so term builders (the external
// term format decoder, bignum arithmetic, list construction in BIFs) work on any of them.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "vm/term.hpp"

namespace beam {

struct BinaryBlob;

// Extra heap memory of a process outside its main block: what BIFs allocate when the heap is
// full, and copied messages. Part of the young generation until the next GC merges it.
struct HeapFragment {
    HeapFragment* next;
    size_t size;
    size_t used;
    Term words[1];
};

// Words a process keeps free between its heap top and its stack top, so that a call can push
// its return address unchecked (vm/process.hpp).
inline constexpr size_t S_RESERVED = 1;

class TermAllocator {
public:
    virtual ~TermAllocator() = default;
    // Returns `words` uninitialised words that stay put until the owner collects or frees them.
    // A process's free gap is bumped here, inline in every term builder (a virtual call per
    // tuple or map was 2% of OTP's compiler's instructions); the rest asks the owner.
    Term* alloc(size_t words) {
        if (size_t(stop - htop) >= words + S_RESERVED) [[likely]] {
            Term* r = htop;
            htop += words;
            return r;
        }
        return alloc_slow(words);
    }
    // Off-heap (reference-counted) binaries built here are linked into the owner's list, so the
    // owner can drop its references when it collects or dies. `procbin` is the RefcBin object.
    virtual void link_offheap(Term* procbin) = 0;

    // Words free in the gap now, 0 outside a process. A builder that learns its size as it goes
    // may write up to this many words from htop on, then move htop past what it wrote.
    size_t gap_words() const {
        size_t gap = size_t(stop - htop);
        return gap > S_RESERVED ? gap - S_RESERVED : 0;
    }

    // A process's heap top and stack top, the free gap between them (vm/process.hpp). Null in
    // every other allocator, whose allocations all go to alloc_slow.
    Term* htop = nullptr;
    Term* stop = nullptr;

protected:
    // Words when the gap (if any) is too small: a heap fragment, a literal block.
    virtual Term* alloc_slow(size_t words) = 0;
};

// Words that never move and are freed all at once: module literals, test scratch space.
class LiteralArea final : public TermAllocator {
public:
    LiteralArea() = default;
    LiteralArea(const LiteralArea&) = delete;
    LiteralArea& operator=(const LiteralArea&) = delete;
    ~LiteralArea() override;

    void link_offheap(Term* procbin) override;
    // True if `p` points into one of this area's blocks (used by purge checks).
    bool contains(const Term* p) const;
    // Words handed out so far (an upper bound on what a copy of its terms needs).
    size_t used_words() const;
    // Forgets every term built here (dropping its off-heap references), keeping one block of
    // memory for the next use: a scratch area reused for one message after another.
    void reset();

protected:
    Term* alloc_slow(size_t words) override;

private:
    // Raw storage: Term's constructor writes the non-value, and a scratch area used to build one
    // message filled a whole 32 KiB block with it (measured: 13% of a TCP echo's time).
    struct FreeWords {
        void operator()(Term* p) const { ::operator delete(p); }
    };
    struct Block {
        std::unique_ptr<Term, FreeWords> words;
        size_t size;
        size_t used;
    };
    std::vector<Block> blocks_;
    Term* offheap_ = nullptr;  // first RefcBin; linked through its `next` word
};

}  // namespace beam
