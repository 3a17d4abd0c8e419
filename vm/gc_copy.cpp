// The copying core of the collector (Cheney). Iterative: the scan pointers walk the to-spaces
// linearly, so neither list length nor nesting depth uses C++ stack.
//
// Forwarding, written into from-space once an object is copied:
//   boxed object: its header is replaced by a boxed pointer to the copy (a header has tag 00,
//                 so a boxed-tagged first word can only mean "moved");
//   cons cell:    its head is replaced by CONS_MOVED and its tail by the list pointer to the
//                 copy. CONS_MOVED is header-tagged, which no term (and so no head) ever is.
#include <algorithm>
#include <utility>

#include "vm/binary.hpp"
#include "vm/copy_words.hpp"
#include "vm/gc_internal.hpp"

namespace beam::gc {

namespace {
constexpr Term CONS_MOVED = make_header(Sub::Tuple, 0);
}  // namespace

Copier::Copier(CopyPlan plan, Term* young_to, Term* old_to)
    : plan_(std::move(plan)), young_top_(young_to), old_base_(old_to), old_top_(old_to), young_scan_(young_to),
      old_scan_(old_to) {
    for (const Range& r : plan_.fragments) {
        if (!fragment_span_.lo || r.lo < fragment_span_.lo) fragment_span_.lo = r.lo;
        if (r.hi > fragment_span_.hi) fragment_span_.hi = r.hi;
    }
}

bool Copier::in_fragment(const Term* p) const {
    const auto& f = plan_.fragments;
    if (!fragment_span_.contains(p)) return false;  // the old heap, for most pointers of a minor GC
    // Pointers met one after another mostly lie in the same fragment (a message, a queue of
    // messages taken in together): the last fragment found is tried before the search.
    if (last_fragment_.contains(p)) return true;
    // The last fragment starting at or below p is the only one that can hold it.
    auto it = std::upper_bound(f.begin(), f.end(), p, [](const Term* q, const Range& r) { return q < r.lo; });
    if (it == f.begin()) return false;
    if (!std::prev(it)->contains(p)) return false;
    last_fragment_ = *std::prev(it);
    return true;
}

// Inlined into evacuate (called for every pointer the collector meets); the young heap, where
// nearly every pointer lands, is tested first.
[[gnu::always_inline]] inline Term** Copier::destination(const Term* p) {
    if (plan_.young.contains(p)) return p < plan_.promote_limit ? &old_top_ : &young_top_;
    if (plan_.old.contains(p)) return &young_top_;
    if (plan_.fragments.empty() || plan_.stays.contains(p)) return nullptr;
    if (in_fragment(p)) return &young_top_;
    return nullptr;  // old heap in a minor collection, or a literal: stays where it is
}

// The body of evacuate, inlined into scan_area: a call per pointer saved and restored four
// registers (docs/benchmarks.md, "Session 35").
[[gnu::always_inline]] inline Term Copier::evacuate_inline(Term t) {
    if (is_list(t)) {
        Term* cell = list_ptr(t);
        Term** dest = destination(cell);
        if (!dest) return plan_.literals ? evacuate_literal(t) : t;
        if (cell[0] == CONS_MOVED) return cell[1];
        Term* copy = *dest;
        *dest += 2;
        copy[0] = cell[0];
        copy[1] = cell[1];
        Term moved = make_list(copy);
        cell[0] = CONS_MOVED;
        cell[1] = moved;
        return moved;
    }
    Term* obj = boxed_ptr(t);
    Term** dest = destination(obj);
    if (!dest) return plan_.literals ? evacuate_literal(t) : t;
    Term hdr = obj[0];
    if (is_boxed(hdr)) return hdr;
    size_t words = 1 + header_arity(hdr);
    Term* copy = *dest;
    *dest += words;
    copy_words(copy, obj, words);
    Term moved = make_boxed(copy);
    obj[0] = moved;
    return moved;
}

Term Copier::evacuate(Term t) { return evacuate_inline(t); }

Term Copier::evacuate_literal(Term t) {
    const Term* src = is_list(t) ? list_ptr(t) : boxed_ptr(t);
    if (!plan_.literals->contains(src)) return t;
    auto [it, fresh] = literal_copies_.try_emplace(src, t);
    if (!fresh) return it->second;
    Term* copy = young_top_;
    if (is_list(t)) {
        young_top_ += 2;
        copy[0] = src[0];
        copy[1] = src[1];
        return it->second = make_list(copy);
    }
    size_t words = 1 + header_arity(src[0]);
    young_top_ += words;
    copy_words(copy, src, words);
    if (is_offheap_header(src[0])) {
        offheap_retain(copy);
        literal_refc_.push_back(copy);
    }
    return it->second = make_boxed(copy);
}

// Scans [s, top) where `top` grows while copying; returns where the scan stopped.
Term* Copier::scan_area(Term* s, Term* const& top) {
    while (s < top) {
        Term w = *s;
        if (!is_header(w)) {
            if (is_pointer(w)) *s = evacuate_inline(w);
            ++s;
            continue;
        }
        Sub sub = header_sub(w);
        switch (sub) {
        case Sub::Tuple:
        case Sub::Map:
        case Sub::HashMap:
            // Every word that follows is a term: the loop takes them one by one.
            s += 1;
            break;
        case Sub::Fun:
            s += 2;  // word 1 is the FunEntry pointer; the creator pid and free variables follow as terms
            break;
        case Sub::SubBin:
        case Sub::MatchState:
            root(s[1]);  // the underlying binary; offsets are raw
            s += 1 + header_arity(w);
            break;
        default:
            s += 1 + header_arity(w);  // raw payload (sub_is_raw)
            break;
        }
    }
    return s;
}

void Copier::scan() {
    // Promoted objects may refer to young ones and vice versa: alternate until both are done.
    while (young_scan_ < young_top_ || (old_scan_ && old_scan_ < old_top_)) {
        young_scan_ = scan_area(young_scan_, young_top_);
        if (old_scan_) old_scan_ = scan_area(old_scan_, old_top_);
    }
}

Term* Copier::sweep_offheap(Term* list, Range old_heap) {
    // Two lists, spliced at the end in front of the old tail: young survivors, then what was
    // promoted. The list then reads young to old, the order the next minor relies on.
    Term* young_first = nullptr;
    Term* young_last = nullptr;
    Term* promoted_first = nullptr;
    Term* promoted_last = nullptr;
    auto append = [](Term*& first, Term*& last, Term* obj) {
        if (last) set_offheap_next(last, obj);
        else first = obj;
        last = obj;
    };
    Term* old_tail = nullptr;
    for (Term* e = list; e;) {
        if (old_heap.contains(e)) {  // from here on the list is the old heap's
            old_tail = e;
            break;
        }
        Term* next = offheap_next(e);
        if (!destination(e)) {  // not in from-space (nothing but the heaps links here): kept
            young_kept_offheap_words_ += offheap_words(e);
            append(young_first, young_last, e);
        } else if (is_boxed(e[0])) {
            Term* moved = boxed_ptr(e[0]);
            if (moved >= old_base_ && moved < old_top_) {
                promoted_offheap_words_ += offheap_words(moved);
                append(promoted_first, promoted_last, moved);
            } else {
                young_kept_offheap_words_ += offheap_words(moved);
                append(young_first, young_last, moved);
            }
        } else {
            offheap_release(e);
        }
        e = next;
    }
    if (promoted_last) set_offheap_next(promoted_last, old_tail);
    else promoted_first = old_tail;
    if (young_last) set_offheap_next(young_last, promoted_first);
    else young_first = promoted_first;
    return young_first;
}

}  // namespace beam::gc
