#include "vm/runner.hpp"

#include <fmt/format.h>

#include "vm/interp.hpp"
#include "vm/interp_support.hpp"
#include "vm/term_print.hpp"

namespace beam {

RunResult run_call(VM& vm, Namespace& ns, Term module, Term function,
                   std::vector<Term> (*make_args)(Process& p, void* ctx), void* ctx) {
    static const Word exit_code[1] = {handler_word(Op::normal_exit)};
    auto p = std::make_unique<Process>(&vm, &ns, make_local_pid(vm.next_pid()), 233);
    std::vector<Term> args = make_args(*p, ctx);
    std::vector<Term> x(MAX_X_REGS, NIL);
    std::copy(args.begin(), args.end(), x.begin());
    Export* e = ns.export_entry(module, function, uint32_t(args.size()));
    // The first frame: a return address that ends the process normally.
    *--p->stop = Term{reinterpret_cast<Word>(exit_code)};
    p->pc = e->address.load(std::memory_order_acquire);
    for (;;) {
        switch (execute(p.get(), x.data())) {
        case RunStatus::Yielded: continue;
        case RunStatus::Exited: std::fflush(vm.out); return {0};
        case RunStatus::Halted: std::fflush(vm.out); return {p->halt_status};
        case RunStatus::Waiting:
            std::fflush(vm.out);
            std::fprintf(stderr, "beamvm: the only process is waiting for a message that cannot arrive\n");
            return {1};
        case RunStatus::Crashed: {
            std::fflush(vm.out);
            std::fprintf(stderr, "Error in process %s with exit value:\n{%s,%s,%s}\n", display_string(p->pid).c_str(),
                         display_string(class_atom(p->fclass)).c_str(), display_string(p->fvalue).c_str(),
                         display_string(p->ftrace).c_str());
            return {1};
        }
        }
    }
}

}  // namespace beam
