#include "vm/copy_term.hpp"
#include "vm/fatal_error.hpp"
#include "vm/heap_ceiling.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <unordered_map>
#include <vector>

#include "vm/binary.hpp"
#include "vm/copy_words.hpp"
#include "vm/gc_internal.hpp"
#include "vm/inline_stack.hpp"

namespace beam {

namespace {

// Which words of a boxed object are terms: [first, last) counted from the header (index 0).
// Mirrors the GC's scanning rules (vm/gc_copy.cpp).
void term_words(Term header, size_t* first, size_t* last) {
    Sub s = header_sub(header);
    size_t n = header_arity(header) + 1;
    switch (s) {
    case Sub::Tuple:
    case Sub::Map:
    case Sub::HashMap: *first = 1, *last = n; return;
    case Sub::Fun: *first = 2, *last = n; return;
    case Sub::SubBin:
    case Sub::MatchState: *first = 1, *last = 2; return;
    default: *first = *last = 0; return;  // raw payload
    }
}

size_t object_words(Term header) {
    if (header_sub(header) == Sub::RefcBin) return REFC_BIN_WORDS;
    return header_arity(header) + 1;
}

// Copies the outermost layer of `t` to `hp` and returns the new term; children still point
// into the source until the scan reaches them.
Term shallow_copy(Term t, Term*& hp, Term** offheap) {
    if (is_list(t)) {
        Term* cell = hp;
        hp += 2;
        cell[0] = head(t);
        cell[1] = tail(t);
        return make_list(cell);
    }
    Term* src = boxed_ptr(t);
    size_t n = object_words(src[0]);
    Term* obj = hp;
    hp += n;
    copy_words(obj, src, n);
    if (is_offheap_header(src[0])) {
        offheap_retain(obj);
        gc::set_offheap_next(obj, *offheap);
        *offheap = obj;
    }
    return make_boxed(obj);
}

bool needs_copy(Term t) { return is_list(t) || is_boxed(t); }

// Calls f on every term word of the objects laid out from `w` up to `end`, skipping raw
// payloads; `end` may move on while the walk runs (the Cheney scan appends behind it).
template <typename F>
void each_term_word(Term* w, Term* const& end, F f) {
    while (w < end) {
        Term t = *w;
        if (is_header(t)) {
            size_t first, last;
            term_words(t, &first, &last);
            for (size_t i = first; i < last; ++i) f(w[i]);
            w += object_words(t);
        } else {
            f(*w);
            ++w;
        }
    }
}

Term copy_into(Term t, Term* to, Term** offheap) {
    if (!needs_copy(t)) return t;
    Term* hp = to;
    Term root = shallow_copy(t, hp, offheap);
    // Cheney scan over what has been copied: every term word that still points at the
    // source is replaced by a shallow copy of its referent.
    each_term_word(to, hp, [&](Term& w) {
        if (needs_copy(w)) w = shallow_copy(w, hp, offheap);
    });
    return root;
}

// copy_into within [to, limit), without the size pass: NON_VALUE if the copy would pass
// `limit`; the off-heap objects retained so far are in *offheap either way. *end receives
// where the copy ends.
Term copy_into_bounded(Term t, Term* to, Term* limit, Term** offheap, Term** end) {
    Term* hp = to;
    auto fits = [&](Term u) {
        return hp + (is_list(u) ? 2 : object_words(boxed_ptr(u)[0])) <= limit;
    };
    if (!fits(t)) return NON_VALUE;
    Term root = shallow_copy(t, hp, offheap);
    bool ok = true;
    each_term_word(to, hp, [&](Term& w) {
        if (!ok || !needs_copy(w)) return;
        if (!fits(w)) {
            ok = false;  // the scan runs on over what was copied, which no longer grows
            return;
        }
        w = shallow_copy(w, hp, offheap);
    });
    *end = hp;
    return ok ? root : NON_VALUE;
}

}  // namespace

namespace {
// copy_size's work list: on the C++ stack until it outgrows 64 entries, which a message
// rarely does (a gen_server call's {'$gen_call', {Pid, Tag}, Request} needs 2). With a
// std::vector, malloc and free were 1.5% of bench/real/svc_genserver_ets (perf).
using TodoStack = InlineStack<Term, 64>;
}  // namespace

size_t copy_size(Term t) {
    size_t words = 0;
    TodoStack todo;
    for (;;) {
        while (is_list(t) || is_boxed(t)) {
            if (is_list(t)) {
                words += 2;
                if (needs_copy(head(t))) todo.push(head(t));
                t = tail(t);
                continue;
            }
            Term* obj = boxed_ptr(t);
            words += object_words(obj[0]);
            size_t first, last;
            term_words(obj[0], &first, &last);
            t = NIL;
            for (size_t i = first; i < last; ++i)
                if (needs_copy(obj[i])) todo.push(obj[i]);
        }
        if (todo.empty()) return words;
        t = todo.pop();
    }
}

namespace {

HeapFragment* new_buffer_fragment(size_t words) {
    size_t bytes = sizeof(HeapFragment) + (words - 1) * sizeof(Term);
    void* m = bytes > allocation_ceiling_bytes() ? nullptr : std::malloc(bytes);
    if (!m) out_of_memory("eheap_alloc", "heap_frag", bytes);
    auto* f = static_cast<HeapFragment*>(m);
    f->next = nullptr;
    f->size = words;
    f->used = words;
    return f;
}

// A tuple of immediates (most messages that carry a tag and a counter or a pid): its words
// as they are, without the size pass and the scan.
bool is_flat_tuple(Term t) {
    if (!is_tuple(t)) return false;
    const Term* e = boxed_ptr(t) + 1;
    for (size_t i = 0, n = tuple_arity(t); i < n; ++i)
        if (needs_copy(e[i])) return false;
    return true;
}

}  // namespace

MessageBuffer copy_to_buffer(Term t) {
    MessageBuffer buf;
    if (!needs_copy(t)) {
        buf.term = t;
        return buf;
    }
    if (is_flat_tuple(t)) {
        size_t words = tuple_arity(t) + 1;
        buf.fragment = new_buffer_fragment(words);
        std::copy(boxed_ptr(t), boxed_ptr(t) + words, buf.fragment->words);
        buf.term = make_boxed(buf.fragment->words);
        return buf;
    }
    buf.fragment = new_buffer_fragment(copy_size(t));
    buf.term = copy_into(t, buf.fragment->words, &buf.offheap);
    return buf;
}

namespace {
// Links a message's off-heap objects (`list`, through their word 3) to its receiver p. The
// binaries a message brings count in the receiver's binary virtual heap, as erl's copy and
// message attach add them to MSO overhead: a process that receives large binaries (a socket's
// {tcp, S, Data}) then collects as often as erl's would. Without it the 64 KiB echo held every
// received packet until a heap-driven collection (2.5x erl's peak RSS).
void take_message_offheap(Process* p, Term* list) {
    while (Term* pb = list) {
        list = gc::offheap_next(pb);
        p->link_offheap(pb);  // counts it in vheap_words
    }
}
}  // namespace

Term adopt_buffer(Process* p, MessageBuffer& buf) {
    if (buf.fragment) {
        // Behind the fragment Process::alloc bumps into, so that one stays first.
        if (p->fragments) {
            buf.fragment->next = p->fragments->next;
            p->fragments->next = buf.fragment;
        } else {
            p->fragments = buf.fragment;
        }
        p->fragment_words += buf.fragment->used;
    }
    take_message_offheap(p, buf.offheap);
    buf.offheap = nullptr;
    if (buf.fragment) p->note_growth_outside_heap();
    Term t = buf.term;
    buf = MessageBuffer{};
    return t;
}

// A message of at most this many words that does not fit on the heap is copied into the
// fragment Process::alloc bumps into, rather than kept in a fragment of its own: a long queue
// of small messages then lies in a few fragments, not one per message. The collector looks up
// the fragment of every pointer it meets outside the heaps (a binary search over them), and
// with one fragment per queued message that search was 18% of real_pipeline's time. A larger
// message keeps its own fragment: copying it once more would cost more than the search saves.
constexpr size_t SPILL_MAX_WORDS = 128;

Term take_buffer(Process* p, MessageBuffer& buf) {
    HeapFragment* f = buf.fragment;
    if (!f || buf.offheap) return adopt_buffer(p, buf);
    if (p->heap_free() < f->used + S_RESERVED && f->used > SPILL_MAX_WORDS) return adopt_buffer(p, buf);
    // The buffer was laid out by copy_into: a block copy onto the heap (when the message fits
    // there) and a pass that moves its pointers.
    Term t = copy_flat(buf.term, f->words, f->used, *p);
    std::free(f);
    buf = MessageBuffer{};
    return t;
}

// Below this many free words on the receiver's heap, copy_to_process does not try a copy
// without the size pass.
constexpr size_t BOUNDED_MIN_WORDS = 16;

Term copy_to_process(Process* p, Term t) {
    if (!needs_copy(t)) return t;
    if (is_flat_tuple(t)) {
        size_t words = tuple_arity(t) + 1;
        Term* to = p->alloc(words);
        std::copy(boxed_ptr(t), boxed_ptr(t) + words, to);
        return make_boxed(to);
    }
    Term* offheap = nullptr;
    Term r = NON_VALUE;
    // Most messages fit in what is left of the heap: copied there at once, the size pass
    // is saved. One that does not is sized and copied again.
    if (p->heap_free() > S_RESERVED + BOUNDED_MIN_WORDS) {
        Term* end;
        r = copy_into_bounded(t, p->htop, p->stop - S_RESERVED, &offheap, &end);
        if (is_value(r)) {
            p->htop = end;
        } else {
            gc::release_offheap_list(offheap);
            offheap = nullptr;
        }
    }
    if (!is_value(r)) r = copy_into(t, p->alloc(copy_size(t)), &offheap);
    take_message_offheap(p, offheap);
    return r;
}

void discard_buffer(MessageBuffer& buf) {
    gc::release_offheap_list(buf.offheap);
    std::free(buf.fragment);
    buf = MessageBuffer{};
}

namespace {
const Term* object_of(Term t) { return is_list(t) ? list_ptr(t) : boxed_ptr(t); }
}  // namespace

Term copy_term_shared(Term t, TermAllocator& a, size_t* words_out) {
    if (words_out) *words_out = 0;
    if (!needs_copy(t)) return t;
    // Each object once: the words of the copy, and the objects in the order met.
    std::unordered_map<const Term*, Term> copies;
    size_t words = 0;
    std::vector<Term> todo{t};
    while (!todo.empty()) {
        Term u = todo.back();
        todo.pop_back();
        if (!copies.try_emplace(object_of(u), NON_VALUE).second) continue;
        if (is_list(u)) {
            words += 2;
            for (Term c : {head(u), tail(u)})
                if (needs_copy(c)) todo.push_back(c);
            continue;
        }
        const Term* obj = boxed_ptr(u);
        words += object_words(obj[0]);
        size_t first, last;
        term_words(obj[0], &first, &last);
        for (size_t i = first; i < last; ++i)
            if (needs_copy(obj[i])) todo.push_back(obj[i]);
    }
    if (words_out) *words_out = words;
    Term* to = a.alloc(words);
    Term* hp = to;
    Term* offheap = nullptr;
    // Cheney scan as copy_into, but an object already copied is pointed at, not copied again.
    auto copy_once = [&](Term w) {
        Term& c = copies[object_of(w)];
        if (c == NON_VALUE) c = shallow_copy(w, hp, &offheap);
        return c;
    };
    Term root = copy_once(t);
    each_term_word(to, hp, [&](Term& w) {
        if (needs_copy(w)) w = copy_once(w);
    });
    while (Term* pb = offheap) {
        offheap = gc::offheap_next(pb);
        a.link_offheap(pb);
    }
    return root;
}

Term copy_term_into(Term t, Term* to, Term** offheap) { return copy_into(t, to, offheap); }

Term copy_flat(Term t, const Term* src, size_t words, TermAllocator& a) {
    if (!needs_copy(t)) return t;
    Term* to = a.alloc(words);
    std::copy(src, src + words, to);
    const Word shift = Word((to - src) * SWord(sizeof(Term)));
    for (Term *w = to, *end = to + words; w < end;) {
        Term h = *w;
        if (!is_header(h)) {  // a list cell's word
            if (needs_copy(h)) w->raw += shift;
            ++w;
            continue;
        }
        size_t first, last;
        term_words(h, &first, &last);
        for (size_t i = first; i < last; ++i)
            if (needs_copy(w[i])) w[i].raw += shift;
        if (is_offheap_header(h)) {
            offheap_retain(w);
            a.link_offheap(w);
        }
        w += object_words(h);
    }
    return Term{t.raw + shift};
}

Term copy_term(Term t, TermAllocator& a) {
    if (!needs_copy(t)) return t;
    size_t words = copy_size(t);
    Term* to = a.alloc(words);
    Term* offheap = nullptr;
    Term r = copy_into(t, to, &offheap);
    while (Term* pb = offheap) {
        offheap = gc::offheap_next(pb);
        a.link_offheap(pb);
    }
    return r;
}

}  // namespace beam
