// The dispatch loop. The handlers themselves are generated from vm/instructions.tab; this file
// only defines the registers they work on and the macros they use.
//
// Hot state lives in locals: I (instruction pointer), E (stack pointer), HTOP (heap top) and
// reds (reduction budget). Anything that may allocate, collect or walk the stack runs between
// SWAPOUT (locals -> process) and SWAPIN (process -> locals).
#include "vm/interp.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bifs/bif.hpp"
#include "vm/bignum.hpp"
#include "vm/code_table.hpp"
#include "vm/gc.hpp"
#include "vm/interp_support.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/nif_call.hpp"
#include "vm/binary.hpp"
#include "vm/term_order.hpp"
#include "vm/breakpoints.hpp"
#include "vm/trace_calls.hpp"
#include "vm/op_counts.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
const InstrMeta META[] = {
#include "vm/instr_meta.inc"
};

RunStatus run(Process* p, const void* const** handlers_out);
}  // namespace

const InstrMeta& instr_meta(Op op) { return META[size_t(op)]; }

const Word* nif_resume_code() {
    static const Word code[1] = {handler_word(Op::nif_resume)};
    return code;
}

static const void* const* handlers() {
    static const void* const* table = [] {
        const void* const* t = nullptr;
        run(nullptr, &t);
        return t;
    }();
    return table;
}

Word handler_word(Op op) { return reinterpret_cast<Word>(handlers()[size_t(op)]); }

Op op_of_handler(Word w) {
    const void* const* h = handlers();
    for (size_t i = 0; i < size_t(Op::COUNT); ++i)
        if (reinterpret_cast<Word>(h[i]) == w) return Op(i);
    return Op::COUNT;
}

RunStatus execute(Process* p) {
    p->slice_reds_used = 0;
    RunStatus rs = run(p, nullptr);
    // Every way out of run() saves its state with SWAPOUT, which records the slice's use.
    p->reductions += p->slice_reds_used;
    p->slice_reds_used = 0;
    return rs;
}

namespace {

// SWAPOUT also publishes the reductions used so far in this slice (process_info(self(),
// reductions) mid-slice; the scheduler adds them to the process's count when the slice ends).
#define SWAPOUT (p->htop = HTOP, p->stop = E, p->slice_reds_used = REDUCTION_BUDGET - reds)
// SWAPIN takes the budget back from the process too: a native may have charged reductions
// (bump_reductions/1) or set what is left (erts_debug:set_internal_state(reds_left, N)).
#define SWAPIN (HTOP = p->htop, E = p->stop, reds = REDUCTION_BUDGET - p->slice_reds_used)
// The handler word is read as a relaxed atomic: call tracing patches function entries while
// other schedulers run the code (vm/breakpoints.cpp update_entry, an atomic store). On x86-64
// and AArch64 this is the same single load as a plain read.
#define DISPATCH() goto* reinterpret_cast<const void*>(__atomic_load_n(I, __ATOMIC_RELAXED))
#define NEXT(n)  \
    do {         \
        I += (n); \
        DISPATCH(); \
    } while (0)
#define JUMP(addr)  \
    do {            \
        I = (addr); \
        DISPATCH(); \
    } while (0)
#define RAISE() goto raise_exception
// Leaving run() with the process to be resumed later: its live x registers (p->arity of them)
// are kept in p->saved_x for the next time slice.
#define LEAVE(status)           \
    do {                        \
        save_live_x(p, x);      \
        return (status);        \
    } while (0)
// The message at the receive's current position into m; when the mailbox is exhausted,
// signals that arrived meanwhile are taken in first, and with none the receive goes to fail.
#define NEXT_MESSAGE(m, fail)                                         \
    do {                                                              \
        if (p->mailbox_save < p->mailbox.size()) {                    \
            m = p->mailbox[p->mailbox_save];                          \
        } else {                                                      \
            SWAPOUT;                                                  \
            m = fetch_signals(p);                                     \
            SWAPIN;                                                   \
            if (is_non_value(m)) {                                    \
                if (p->sched.exit_pending) return RunStatus::Killed;  \
                JUMP(fail);                                           \
            }                                                         \
        }                                                             \
    } while (0)
#define ANY(w) any_operand((w), x, E)
// Field k of a `pack` instruction's operand words (vm/interp.hpp InstrMeta::packed): a 16-bit
// load from the code, as cheap as the word load it replaces.
#define PACKED_FIELD(at, k) packed_field((at) + 1 + (k) / PACKED_FIELDS_PER_WORD, (k) % PACKED_FIELDS_PER_WORD)
#define ANYD(w) any_dest((w), x, E)

#define HEAP_CHECK(need, live)                                            \
    do {                                                                  \
        if (E - HTOP < SWord((need) + S_RESERVED) || fragments_due(p)) { \
            SWAPOUT;                                                      \
            garbage_collect(p, x, unsigned(live), size_t(need));          \
            SWAPIN;                                                       \
            /* max_heap_size exceeded with kill (vm/gc_max_heap.cpp) */   \
            if (p->sched.exit_pending) return RunStatus::Killed;          \
        }                                                                 \
    } while (0)

// A new stack frame of n y registers, each [], with `heap` words of heap besides (allocate).
#define ALLOCATE_FRAME(n, heap, live)                    \
    do {                                                 \
        HEAP_CHECK((n) + (heap), live);                  \
        E -= (n);                                        \
        for (Word i_ = 0; i_ < Word(n); ++i_) E[i_] = NIL; \
    } while (0)

#define CALL_TO(target_, arity_)                  \
    do {                                          \
        const Word* call_target_ = (target_);     \
        if (fragments_due(p)) {                   \
            /* Fragments pile up in loops that     \
               never reach a heap check. */        \
            SWAPOUT;                              \
            garbage_collect(p, x, unsigned(arity_), 0); \
            SWAPIN;                               \
            if (p->sched.exit_pending) return RunStatus::Killed; \
        }                                         \
        if (--reds <= 0) {                        \
            p->pc = call_target_;                 \
            p->arity = unsigned(arity_);          \
            SWAPOUT;                              \
            LEAVE(RunStatus::Yielded);            \
        }                                         \
        JUMP(call_target_);                       \
    } while (0)

// After a NIF call or step (vm/nif_call.hpp): return its value, raise, or leave the process
// with its x registers holding what the next step needs: it yields to run the step later
// (erts too ends the slice at every enif_schedule_nif, without counting its rest as the
// process's reductions), or goes to a dirty scheduler.
#define NIF_NEXT(step)                                                  \
    do {                                                                \
        const NifStep& st_ = (step);                                    \
        switch (st_.next) {                                             \
        case NifNext::Return:                                           \
            x[0] = st_.value;                                           \
            I = cp_of(E[0]);                                            \
            E += 1;                                                     \
            DISPATCH();                                                 \
        case NifNext::Raise:                                            \
            if (!p->halt_requested) p->fskip_pc_frame = true; /* p->ftop names the NIF */ \
            RAISE();                                                    \
        case NifNext::Continue:                                         \
            if (fragments_due(p)) {                                     \
                SWAPOUT;                                                \
                garbage_collect(p, x, st_.live, 0);                     \
                SWAPIN;                                                 \
                if (p->sched.exit_pending) return RunStatus::Killed;    \
            }                                                           \
            p->pc = nif_resume_code();                                  \
            p->arity = st_.live;                                        \
            SWAPOUT;                                                    \
            LEAVE(RunStatus::Yielded);                                  \
        case NifNext::Dirty:                                            \
            p->pc = nif_resume_code();                                  \
            p->arity = st_.live;                                        \
            SWAPOUT;                                                    \
            LEAVE(RunStatus::Dirty);                                    \
        }                                                               \
        __builtin_unreachable();                                        \
    } while (0)

// Calls a BIF in body context (failure raises) with arguments `args`, storing the result.
#define CALL_BIF_TO(spec_word, args, dst)                               \
    do {                                                                \
        const BifSpec* spec_ = reinterpret_cast<const BifSpec*>(spec_word); \
        SWAPOUT;                                                        \
        p->pc = I; /* lets the BIF see its caller (erlang:nif_error) */ \
        Term r_ = spec_->fn(p, args);                                   \
        SWAPIN;                                                         \
        if (is_non_value(r_)) {                                         \
            note_bif_error(p, spec_, args);                             \
            RAISE();                                                    \
        }                                                               \
        dst = r_;                                                       \
    } while (0)
// Arguments in x0..x(arity-1); the result replaces x0. A BIF that traps (Process::trap)
// continues as a call of its Erlang target: `frame` makes that call a body call (push the
// return address) or a tail call (nothing, or drop the caller's frame).
#define CALL_BIF_X(spec_word, frame) CALL_BIF_X_AT(spec_word, frame, I, I)
// `at_`: where the BIF sees itself called from (process_info's current_function);
// `site_`: the code address an exception names first (nullptr: none, the stack says).
#define CALL_BIF_X_AT(spec_word, frame, at_, site_)                      \
    do {                                                                \
        const BifSpec* spec_ = reinterpret_cast<const BifSpec*>(spec_word); \
        SWAPOUT;                                                        \
        p->pc = (at_);                                                  \
        Term r_ = spec_->fn(p, x);                                      \
        SWAPIN;                                                         \
        if (is_non_value(r_)) {                                         \
            if (p->trap_to) {                                           \
                unsigned n_ = take_trap(p, x);                          \
                const Word* t_ = p->trap_to->address.load(std::memory_order_acquire); \
                p->trap_to = nullptr;                                   \
                frame;                                                  \
                CALL_TO(t_, n_);                                        \
            }                                                           \
            note_bif_error(p, spec_, x);                                \
            /* bif_body runs in its caller's name: no frame for itself */ \
            if ((site_) != I) {                                         \
                if (site_) I = (site_);                                 \
                else p->fskip_pc_frame = true;                          \
            }                                                           \
            RAISE();                                                    \
        }                                                               \
        x[0] = r_;                                                      \
    } while (0)
// While some BIF is traced (vm/breakpoints.hpp): one predictable branch on the BIF call path.
#define BIF_TRACING(p) __builtin_expect((p)->vm->call_tracing.bifs_traced.load(std::memory_order_relaxed) != 0, 0)
// A BIF bound at load time that is traced is called like an Erlang function, through where
// traced_bif_target says; `frame` sets up the call as the instruction's kind of call does.
// `tail`: the call leaves no return address in its caller, so an exception in the BIF names
// the call site itself (bif_body takes p->bif_call_site).
#define CALL_TRACED_BIF(spec_word, frame, tail)                        \
    do {                                                                \
        if (BIF_TRACING(p)) {                                           \
            const BifSpec* tspec_ = reinterpret_cast<const BifSpec*>(spec_word); \
            if (const Word* tt_ = traced_bif_target(p, tspec_)) {       \
                p->traced_bif_caller = I;                               \
                if (tail) p->bif_call_site = I;                         \
                frame;                                                  \
                CALL_TO(tt_, tspec_->arity);                            \
            }                                                           \
        }                                                               \
    } while (0)
#define BIF_CALL0(spec_word, dst) CALL_BIF_TO(spec_word, x, dst)

// Guard context (fail label set): failure jumps to it. Body context: failure raises.
#define BIF_CALL(spec_word, args, fail, dst)                            \
    do {                                                                \
        const BifSpec* spec_ = reinterpret_cast<const BifSpec*>(spec_word); \
        SWAPOUT;                                                        \
        Term r_ = spec_->fn(p, args);                                   \
        SWAPIN;                                                         \
        if (is_non_value(r_)) {                                         \
            if (p->halt_requested) RAISE();                             \
            if (fail) JUMP(fail);                                       \
            note_bif_error(p, spec_, args);                             \
            RAISE();                                                    \
        }                                                               \
        dst = r_;                                                       \
    } while (0)

#define ARITH_SLOW(fn, a, b, fail, dst, spec)                           \
    do {                                                                \
        SWAPOUT;                                                        \
        Term r_ = fn(p, a, b);                                          \
        SWAPIN;                                                         \
        if (is_non_value(r_)) {                                         \
            if (fail) JUMP(fail);                                       \
            Term args_[2] = {a, b};                                     \
            if (const BifSpec* s_ = (spec)) note_bif_error(p, s_, args_); \
            RAISE();                                                    \
        }                                                               \
        dst = r_;                                                       \
    } while (0)

#define RAISE_ERROR2(tag, v)   \
    do {                       \
        SWAPOUT;               \
        p->error2(tag, v);     \
        RAISE();               \
    } while (0)

#define FLOAT_OP(expr, d)                  \
    do {                                   \
        double r_ = (expr);                \
        if (!std::isfinite(r_)) {          \
            SWAPOUT;                       \
            p->error(am::badarith);        \
            RAISE();                       \
        }                                  \
        FR[d] = r_;                        \
    } while (0)

// `pushed`: the instruction pushed its own return address (a call, not a tail call). A BIF
// reached through apply is called right here, as OTP does, so that an exception it raises
// (erlang:error/2 through apply in tail position) names the applying function; the return
// address the apply pushed is dropped first, since the pc names that function already.
#define DO_APPLY(arity, pushed)                                      \
    do {                                                             \
        unsigned n_apply_ = unsigned(arity);                         \
        SWAPOUT;                                                     \
        const Word* t_ = apply_target(p, x, &n_apply_, (pushed));    \
        SWAPIN;                                                      \
        if (!t_) RAISE();                                            \
        if (t_[0] == bif_body_word()) {                              \
            if (BIF_TRACING(p))                                      \
                if (const Word* tt_ = traced_bif_target(p, reinterpret_cast<const BifSpec*>(t_[1]))) { \
                    /* a tail call: its caller is named by I, not by a pushed return */ \
                    p->traced_bif_caller = (pushed) ? nullptr : I;   \
                    p->bif_call_site = (pushed) ? nullptr : I;       \
                    CALL_TO(tt_, n_apply_);                          \
                }                                                    \
            const Word* next_ = (pushed) ? cp_of(E[0]) : nullptr;    \
            if (pushed) E += 1;                                      \
            --reds;                                                  \
            CALL_BIF_X(t_[1], (pushed) ? (void)(E -= 1, E[0] = make_cp(next_)) : (void)0); \
            if (pushed) {                                            \
                I = next_;                                           \
            } else {                                                 \
                I = cp_of(E[0]);                                     \
                E += 1;                                              \
            }                                                        \
            DISPATCH();                                              \
        }                                                            \
        CALL_TO(t_, n_apply_);                                       \
    } while (0)

// The callee of a closure takes its free variables as extra arguments: they are live too.
#define DO_CALL_FUN(arity, fun)                                      \
    do {                                                             \
        SWAPOUT;                                                     \
        unsigned total_ = unsigned(arity);                           \
        const Word* t_ = fun_target(p, x, unsigned(arity), fun, &total_); \
        SWAPIN;                                                      \
        if (!t_) RAISE();                                            \
        CALL_TO(t_, total_);                                         \
    } while (0)

// A fun call in tail position: the fun is checked (badfun, badarity) while the caller's frame
// is still there, as OTP's i_call_fun_last does, so the error's stack trace names the caller;
// the frame goes only when the call is sure to happen.
#define DO_CALL_FUN_LAST(arity, fun, dealloc)                        \
    do {                                                             \
        const Word dealloc_ = Word(dealloc);                         \
        SWAPOUT;                                                     \
        unsigned total_ = unsigned(arity);                           \
        const Word* t_ = fun_target(p, x, unsigned(arity), fun, &total_); \
        SWAPIN;                                                      \
        if (!t_) {                                                   \
            /* no return address was pushed for this call: the */     \
            /* caller's frame is the pc's, which must not be skipped */ \
            p->fskip_pc_frame = false;                               \
            RAISE();                                                 \
        }                                                            \
        E += dealloc_;                                               \
        CALL_TO(t_, total_);                                         \
    } while (0)

// Heap fragments (BIF overflow, received messages) are merged by the next GC; collecting as
// soon as any exists would mean one GC per received message.
// So are off-heap binaries past the binary virtual heap's limit (Process::vheap_words).
inline bool fragments_due(const Process* p) { return p->gc_due; }

// The cons cell [h | t] at the heap top (its room checked before), the top moved past it.
inline Term cons_on_heap(Term*& htop, Term h, Term t) {
    Term cell = cons_at(htop, h, t);
    htop += 2;
    return cell;
}

// Both small integers: one test of the tag bits the two words share.
inline bool both_small(Term a, Term b) { return (a.raw & b.raw & tag::immed1_mask) == tag::small; }

// Term order `a < b` with the common cases (two small integers, two floats) inline.
inline bool less_than(Term a, Term b) {
    if (both_small(a, b)) [[likely]]
        return SWord(a.raw) < SWord(b.raw);
    if (is_float(a) && is_float(b)) return float_value(a) < float_value(b);
    return compare_terms(a, b) < 0;
}

// The arguments of a trapping BIF into x0..; returns how many.
inline unsigned take_trap(Process* p, Term* x) {
    for (uint32_t i = 0; i < p->trap_arity; ++i) x[i] = p->trap_args[i];
    return p->trap_arity;
}

// Usually nothing is live across a receive: then the buffer goes back, as a waiting process
// should hold as little as it can.
inline void save_live_x(Process* p, const Term* x) {
    if (p->arity == 0) std::vector<Term>().swap(p->saved_x);
    else p->saved_x.assign(x, x + p->arity);
}

// Whether the code at `at` is [loop_rec_end receive]: the receive skips the message and
// starts over at `receive`.
inline bool loops_back_to(const Word* receive, const Word* at) {
    static const Word loop_rec_end = handler_word(Op::loop_rec_end_f);
    return at[0] == loop_rec_end && reinterpret_cast<const Word*>(at[1]) == receive;
}

// The handler word of bif_body, the first word of a BIF's export stub.
inline Word bif_body_word() {
    static const Word w = handler_word(Op::bif_body_p);
    return w;
}

inline const Word* export_address(Word e) {
    return reinterpret_cast<Export*>(e)->address.load(std::memory_order_acquire);
}
// Where a call through entry `w` goes for process p: the entry of p's namespace for the same
// function. Code calls entries of the namespace it was loaded into, so the check fails only
// for a process running code of another namespace (a namespace's process in the stdlib).
inline const Word* export_address_for(Process* p, Word w) {
    const Export* e = reinterpret_cast<Export*>(w);
    if (__builtin_expect(e->owner != p->ns, 0)) e = p->ns->foreign(e);
    return e->address.load(std::memory_order_acquire);
}

// The x registers live in this function's frame, for the time slice: the handlers address
// them from the stack pointer, which keeps a machine register free for the other hot state.
// The array is raw storage: Term's constructor would fill all of it at every schedule-in.
RunStatus run(Process* p, const void* const** handlers_out) {
    alignas(Term) unsigned char x_storage[MAX_X_REGS * sizeof(Term)];
    Term* const x = reinterpret_cast<Term*>(x_storage);
    const Word* I = nullptr;
    Term* E = nullptr;
    Term* HTOP = nullptr;
    int64_t reds = REDUCTION_BUDGET;
    double FR[1024];
    if (!handlers_out) {
        std::copy_n(p->saved_x.data(), p->arity, x);
        I = p->pc;
        E = p->stop;
        HTOP = p->htop;
    }

#include "vm/instr_handlers.inc"

raise_exception: {
    p->slice_reds_used = REDUCTION_BUDGET - reds;  // not every path here swapped out first
    if (p->halt_requested) return RunStatus::Halted;
    const Word* handler = handle_exception(p, x, I);
    SWAPIN;
    if (!handler) return RunStatus::Crashed;
    JUMP(handler);
}
}

}  // namespace
}  // namespace beam
