// Setting and clearing call-tracing breakpoints (vm/breakpoints.hpp).
#include "vm/breakpoints.hpp"

#include "vm/interp.hpp"
#include "vm/module.hpp"
#include "vm/trace_calls.hpp"
#include "vm/vm.hpp"

namespace beam {

Breakpoint* breakpoint_of(const FunctionInfo& fi) {
    return std::atomic_ref<Breakpoint* const>(fi.bp).load(std::memory_order_acquire);
}

Breakpoint* ensure_breakpoint(ModuleCode& mc, FunctionInfo& fi) {
    if (Breakpoint* bp = breakpoint_of(fi)) return bp;
    auto bp = std::make_shared<Breakpoint>();
    // The entry still holds its own handler: nothing has patched it yet.
    bp->original = std::atomic_ref<Word>(*const_cast<Word*>(fi.entry)).load(std::memory_order_acquire);
    mc.breakpoints.push_back(bp);
    std::atomic_ref<Breakpoint*>(fi.bp).store(bp.get(), std::memory_order_release);
    return bp.get();
}

void update_entry(FunctionInfo& fi, Breakpoint& bp) {
    static const Word breakpoint_word = handler_word(Op::trace_breakpoint);
    uint32_t flags = bp.flags.load(std::memory_order_acquire);
    std::atomic_ref<Word> entry(*const_cast<Word*>(fi.entry));
    entry.store(flags ? breakpoint_word : bp.original, std::memory_order_release);
}

void clear_breakpoints(VM& vm, ModuleCode& mc) {
    std::lock_guard lock(vm.call_tracing.mutex);
    if (mc.breakpoints.empty()) return;  // never traced
    for (FunctionInfo& fi : mc.functions) {
        Breakpoint* bp = breakpoint_of(fi);
        if (!bp || bp->flags.load(std::memory_order_acquire) == 0) continue;
        if (traces_bif(fi)) vm.call_tracing.bifs_traced.fetch_sub(1, std::memory_order_relaxed);
        bp->flags.store(0, std::memory_order_release);
        update_entry(fi, *bp);
    }
}

bool ExportTrace::active() const { return exp->address.load(std::memory_order_acquire) == stub; }

ExportTrace* ensure_export_trace(CallTracing& ct, Export* e) {
    if (ExportTrace* t = std::atomic_ref<ExportTrace*>(e->trace).load(std::memory_order_acquire)) return t;
    auto t = std::make_unique<ExportTrace>();
    t->exp = e;
    t->stub[0] = handler_word(Op::trace_export_p);
    t->stub[1] = reinterpret_cast<Word>(t.get());
    ExportTrace* raw = t.get();
    ct.export_traces.push_back(std::move(t));
    std::atomic_ref<ExportTrace*>(e->trace).store(raw, std::memory_order_release);
    return raw;
}

void set_export_trace(ExportTrace& t, bool on) {
    const Word* current = t.exp->address.load(std::memory_order_acquire);
    if (on) {
        if (current == t.stub) return;
        t.target.store(current, std::memory_order_release);
        // A load that repoints the export meanwhile wins: its new code is not traced (erl).
        t.exp->address.compare_exchange_strong(current, t.stub, std::memory_order_acq_rel);
    } else if (current == t.stub) {
        t.exp->address.compare_exchange_strong(current, t.target.load(std::memory_order_acquire),
                                               std::memory_order_acq_rel);
    }
}

}  // namespace beam
