// process_info(P, backtrace) and erlang:process_display(P, backtrace) (OTP: erl_debug.c,
// erts_stack_dump): the text of a process's stack.
#include "bifs/system_backtrace.hpp"

#include <cstdio>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/interp.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam {
namespace {

// "0x00007f... (mod:fun/arity + byte offset)", or the address alone outside any module.
std::string code_address(Process* p, const Word* pc) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%#018llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(pc)));
    std::string s = buf;
    if (ModuleCode* mc = p->vm->code_at(pc)) {
        if (const FunctionInfo* fi = mc->function_at(pc)) {
            s += " (" + atom_text_quoted(mc->name) + ":" + atom_text_quoted(fi->name) + "/" +
                 std::to_string(fi->arity) + " + " + std::to_string((pc - fi->start) * sizeof(Word)) + ")";
        }
    }
    return s;
}

}  // namespace

std::string backtrace_text(Process* p, const Process* q) {
    if (is_sensitive(q)) return {};  // as erts: a sensitive process's stack is not shown
    std::string out = "Program counter: " + code_address(p, q->pc) + "\n";
    // A frame is [y0 .. yN-1][return address] upwards; erts prints the return address first.
    std::string slots;
    size_t y = 0;
    for (const Term* s = q->stop; s < q->hend; ++s) {
        if (is_cp(*s)) {
            if (s + 1 == q->hend) break;  // the bottom frame that ends the process
            char addr[32];
            std::snprintf(addr, sizeof addr, "%#018llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(s)));
            out += std::string("\n") + addr + " Return addr " + code_address(p, cp_of(*s)) + "\n" + slots;
            slots.clear();
            y = 0;
        } else if (is_catch(*s)) {
            slots += "y(" + std::to_string(y++) + ")     Catch " + code_address(p, catch_address(*s)) + "\n";
        } else {
            slots += "y(" + std::to_string(y++) + ")     " + display_string(*s) + "\n";
        }
    }
    return out + slots;
}

}  // namespace beam
