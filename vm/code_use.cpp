#include "vm/code_use.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "vm/interp.hpp"
#include "vm/seq_trace.hpp"

namespace beam {

namespace {

class UseScanner {
public:
    // `code` null: only literals of `literals` are looked for (a persistent term's area).
    UseScanner(const Process* q, const ModuleCode* code, const LiteralArea& literals)
        : q_(q), code_(code), literals_(literals) {
        auto add = [&](const Term* from, const Term* to) {
            if (from && to > from) areas_.push_back(Area{from, to, 0});
        };
        add(q_->heap, q_->htop);
        add(q_->old_heap, q_->old_htop);
        for (const HeapFragment* f = q_->fragments; f; f = f->next) add(f->words, f->words + f->used);
        std::sort(areas_.begin(), areas_.end(), [](const Area& a, const Area& b) { return a.first < b.first; });
        size_t words = 0;
        for (Area& a : areas_) {
            a.index = words;
            words += size_t(a.end - a.first);
        }
        visited_.assign((words + 63) / 64, 0);
    }

    void term(Term t) {
        if (is_list(t) || is_boxed(t)) pending_.push_back(t);
    }
    void code_address(const Word* pc) {
        if (pc && code_ && code_->contains(pc)) use_.runs = true;
    }
    // Depth-first over the process's own heap objects, each visited once (shared subterms and
    // long lists cost their size, not their number of paths).
    CodeUse finish() {
        while (!pending_.empty()) {
            Term t = pending_.back();
            pending_.pop_back();
            const Term* obj = is_list(t) ? list_ptr(t) : boxed_ptr(t);
            size_t at = heap_index(obj);
            if (at == NOT_ON_HEAP) {
                // Whether the code runs was settled before (code_address): once one literal
                // is found there is nothing left to learn.
                if (literals_.contains(obj)) {
                    use_.literals = true;
                    break;
                }
                continue;  // another module's literal or a persistent term: nothing of ours below
            }
            uint64_t bit = uint64_t(1) << (at % 64);
            if (visited_[at / 64] & bit) continue;
            visited_[at / 64] |= bit;
            if (is_list(t)) {
                term(obj[0]);
                term(obj[1]);
                continue;
            }
            Term hdr = obj[0];
            size_t n = header_arity(hdr);
            switch (header_sub(hdr)) {
            case Sub::Tuple:
            case Sub::Map:
            case Sub::HashMap:
                for (size_t i = 1; i <= n; ++i) term(obj[i]);
                break;
            case Sub::Fun:
                for (size_t i = 2; i <= n; ++i) term(obj[i]);
                break;
            case Sub::SubBin:
            case Sub::MatchState:
                term(obj[1]);
                break;
            default:
                break;  // raw payload
            }
        }
        return use_;
    }

private:
    // The word index of `p` among all the process's heap words (young heap, old heap, heap
    // fragments, in address order), or NOT_ON_HEAP. A process with a long queue of received
    // messages has a fragment per message: walking the fragment list per object, and a hash
    // set of visited objects, made code_SUITE:t_copy_literals_frags (600,000 queued messages,
    // purges looking at them) take minutes where erl takes 3 s.
    static constexpr size_t NOT_ON_HEAP = SIZE_MAX;
    size_t heap_index(const Term* p) const {
        auto after = std::upper_bound(areas_.begin(), areas_.end(), p,
                                      [](const Term* v, const Area& a) { return v < a.first; });
        if (after == areas_.begin()) return NOT_ON_HEAP;
        const Area& a = *std::prev(after);
        return p < a.end ? a.index + size_t(p - a.first) : NOT_ON_HEAP;
    }

    const Process* q_;
    const ModuleCode* code_;
    const LiteralArea& literals_;
    CodeUse use_;
    std::vector<Term> pending_;
    struct Area {
        const Term* first;
        const Term* end;
        size_t index;  // heap_index of `first`
    };
    std::vector<Area> areas_;        // sorted by address; they never overlap
    std::vector<uint64_t> visited_;  // a bit per heap word: objects already looked at
};

}  // namespace

namespace {

CodeUse scan(const Process* q, const ModuleCode* code, const LiteralArea& literals, const Term* x, unsigned live) {
    UseScanner s(q, code, literals);
    s.code_address(q->pc);
    for (unsigned i = 0; i < live; ++i) s.term(x[i]);
    // Stack words: return addresses (tag 00), catch markers, or terms.
    for (const Term* w = q->stop; w < q->hend; ++w) {
        if (is_header(*w)) s.code_address(cp_of(*w));
        else if (is_catch(*w)) s.code_address(catch_address(*w));
        else s.term(*w);
    }
    for (Term t : {q->dictionary, q->fvalue, q->fargs, q->ftrace, q->ftop, q->ferror_info}) s.term(t);
    for (Term m : q->mailbox) s.term(m);
    if (q->seq_trace) {
        s.term(q->seq_trace->token);
        for (Term t : q->seq_trace->tokens) s.term(t);
    }
    return s.finish();
}

}  // namespace

CodeUse scan_code_use(const Process* q, const ModuleCode& code, const Term* x, unsigned live) {
    return scan(q, &code, code.literals, x, live);
}

bool holds_literals(const Process* q, const LiteralArea& area, const Term* x, unsigned live) {
    return scan(q, nullptr, area, x, live).literals;
}

}  // namespace beam
