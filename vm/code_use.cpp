#include "vm/code_use.hpp"

#include <unordered_set>
#include <vector>

#include "vm/interp.hpp"
#include "vm/seq_trace.hpp"

namespace beam {

namespace {

class UseScanner {
public:
    UseScanner(const Process* q, const ModuleCode& code) : q_(q), code_(code) {}

    void term(Term t) {
        if (is_list(t) || is_boxed(t)) pending_.push_back(t);
    }
    void code_address(const Word* pc) {
        if (pc && code_.contains(pc)) use_.runs = true;
    }
    // Depth-first over the process's own heap objects, each visited once (shared subterms and
    // long lists cost their size, not their number of paths).
    CodeUse finish() {
        while (!pending_.empty()) {
            Term t = pending_.back();
            pending_.pop_back();
            const Term* obj = is_list(t) ? list_ptr(t) : boxed_ptr(t);
            if (!on_heap(obj)) {
                if (code_.literals.contains(obj)) use_.literals = true;
                continue;  // another module's literal or a persistent term: nothing of ours below
            }
            if (!visited_.insert(obj).second) continue;
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
    bool on_heap(const Term* p) const {
        if (p >= q_->heap && p < q_->htop) return true;
        if (p >= q_->old_heap && p < q_->old_htop) return true;
        for (const HeapFragment* f = q_->fragments; f; f = f->next)
            if (p >= f->words && p < f->words + f->used) return true;
        return false;
    }

    const Process* q_;
    const ModuleCode& code_;
    CodeUse use_;
    std::vector<Term> pending_;
    std::unordered_set<const Term*> visited_;
};

}  // namespace

CodeUse scan_code_use(const Process* q, const ModuleCode& code, const Term* x, unsigned live) {
    UseScanner s(q, code);
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

}  // namespace beam
