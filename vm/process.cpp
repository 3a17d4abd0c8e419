// Process memory outside the collector: the initial heap block, allocation for BIFs (heap or
// fragment), the off-heap binary list, and teardown.
#include "vm/process.hpp"
#include "vm/fatal_error.hpp"
#include "vm/heap_ceiling.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#include "vm/binary.hpp"
#include "vm/gc_internal.hpp"
#include "vm/process_side_memory.hpp"
#include "vm/seq_trace.hpp"

namespace beam {

namespace {

// A fragment is at least this big so that a BIF building many small terms after the heap ran
// out does not create one fragment per cons cell: the GC looks up every pointer outside the
// heaps among the fragments (a binary search, gc_copy.cpp: Copier::in_fragment).
constexpr size_t FRAGMENT_MIN_WORDS = 256;
constexpr size_t FRAGMENT_GROWTH_MAX_WORDS = size_t(1) << 16;

HeapFragment* new_fragment(size_t words) {
    size_t size = std::max(words, FRAGMENT_MIN_WORDS);
    size_t bytes = sizeof(HeapFragment) + (size - 1) * sizeof(Term);
    void* m = bytes > allocation_ceiling_bytes() ? nullptr : std::malloc(bytes);
    if (!m) out_of_memory("eheap_alloc", "heap_frag", bytes);
    auto* f = static_cast<HeapFragment*>(m);
    f->next = nullptr;
    f->size = size;
    f->used = 0;
    return f;
}

// The first block of a process whose min_heap_size is the default (docs/architecture.md,
// "Where beamvm differs").
// OTP starts every process with min_heap_size (233) words; most processes wait in a receive
// with a few dozen live words for most of their life (issue 11: at most 1,500 bytes for such a
// process). This block with its size word is 512 bytes, one of mimalloc's size classes. Its
// first collection moves the process to min_heap_size words, as the GC never picks a block
// below that, so a busy process pays one collection of a tiny heap and then sizes as in OTP.
constexpr size_t FIRST_HEAP_WORDS = 63;

}  // namespace

Process::Process(VM* vm_, Namespace* ns_, Term pid_, size_t min_heap_words)
    : vm(vm_), ns(ns_), pid(pid_), min_heap_size(min_heap_words ? min_heap_words : gc::DEFAULT_MIN_HEAP) {
    // A min_heap_size asked for (spawn_opt, system_flag) is allocated at once, as in OTP.
    size_t first = min_heap_size == gc::DEFAULT_MIN_HEAP ? FIRST_HEAP_WORDS : min_heap_size;
    heap = gc::alloc_block(first);
    htop = heap;
    high_water = heap;
    hend = heap + first;
    stop = hend;
}

Process::~Process() {
    gc::release_offheap_list(offheap);
    offheap = nullptr;
    gc::free_fragments(fragments);
    fragments = nullptr;
    gc::free_block(heap);
    gc::free_block(old_heap);
}

Term* Process::alloc_slow(size_t words) {
    // No GC here: the caller may hold raw pointers into the heap. The fragment joins the young
    // generation and is merged by the next collection.
    HeapFragment* f = fragments;
    if (!f || f->size - f->used < words) {
        // Each new fragment half as big as all so far (up to FRAGMENT_GROWTH_MAX_WORDS): a
        // process that keeps allocating outside its heap (a queue of messages arriving while
        // it is full, take_buffer) has a few fragments for the collector to search, not one
        // per FRAGMENT_MIN_WORDS.
        f = new_fragment(std::max(words, std::min(fragment_words / 2, FRAGMENT_GROWTH_MAX_WORDS)));
        f->next = fragments;
        fragments = f;
    }
    Term* r = f->words + f->used;
    f->used += words;
    fragment_words += words;
    note_growth_outside_heap();
    return r;
}

void Process::link_offheap(Term* procbin) {
    link_offheap_counted(procbin);
    vheap_words = add_saturating(vheap_words, offheap_words(procbin));
    note_growth_outside_heap();
}

void Process::link_offheap_counted(Term* procbin) {
    gc::set_offheap_next(procbin, offheap);
    offheap = procbin;
}

Term Process::error2(Term tag, Term value) {
    Term* hp = alloc(3);
    hp[0] = make_header(Sub::Tuple, 2);
    hp[1] = tag;
    hp[2] = value;
    return error(make_boxed(hp));
}

Process::Rare& Process::rare() {
    if (!rare_) {
        rare_.reset(new Rare());
        count_process_side_bytes(std::ptrdiff_t(sizeof(Rare)));
    }
    return *rare_;
}

void Process::RareDeleter::operator()(Rare* r) const {
    count_process_side_bytes(-std::ptrdiff_t(sizeof(Rare)));
    delete r;
}

void Process::wake_ports() {
    if (!ports_waiting.exchange(false, std::memory_order_acq_rel)) return;
    int fd = ports_wake_fd.load(std::memory_order_acquire);
    uint64_t one = 1;
    if (fd >= 0) [[maybe_unused]] ssize_t w = ::write(fd, &one, sizeof one);
}

// The seq_trace side of the mailbox (vm/seq_trace.hpp): one entry per message.
void Process::seq_mailbox_push(Term token) { seq_trace->tokens.push_back(token); }

void Process::seq_mailbox_erase(size_t i) {
    auto& tokens = seq_trace->tokens;
    if (i < tokens.size()) tokens.erase(tokens.begin() + long(i));
}

}  // namespace beam
