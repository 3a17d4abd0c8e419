// =proc, =proc_dictionary, =proc_messages, =proc_stack, =proc_heap (erts: erl_process_dump.c,
// break.c print_process_info), and the stop that makes reading them safe.
#include <chrono>
#include <thread>

#include "crashdump/dump_sections.hpp"
#include "crashdump/dump_terms.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/atom_table.hpp"
#include "vm/nif_call.hpp"
#include "vm/process.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam::crashdump {

namespace {

using namespace run_state;
using Clock = std::chrono::steady_clock;

// How long the dump waits, in all, for processes that are running to end their time slice.
// Halting stops the schedulers from taking another process (Schedulers::next), so a
// running process gives its RUNNING bit back within a slice (4000 reductions, well under a
// millisecond) unless it is inside a long native call.
constexpr auto STOP_WAIT = std::chrono::milliseconds(500);

bool take_running_bit(Process* p, Clock::time_point until) {
    std::atomic<uint32_t>& st = p->sched.state;
    for (;;) {
        uint32_t f = st.load(std::memory_order_acquire);
        if (!(f & RUNNING) && st.compare_exchange_weak(f, f | RUNNING, std::memory_order_seq_cst)) return true;
        if (Clock::now() >= until) return false;
        std::this_thread::yield();
    }
}

std::string hex_addr(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
    return buf;
}

std::string mfa_text(Term m, Term f, uint32_t a) {
    return std::string(atom_name(m)) + ":" + std::string(atom_name(f)) + "/" + std::to_string(a);
}

// "#Ref<0.C.B.A>" from a reference's id words, as erts prints one.
std::string ref_text(const Word ref[3]) {
    return "#Ref<0." + std::to_string(ref[2]) + "." + std::to_string(ref[1]) + "." + std::to_string(ref[0]) + ">";
}

// erts names its state from the process's flags; beamvm's are fewer.
const char* state_text(const DumpedProcess& d) {
    if (d.caller || !d.stopped) return "Running";
    if (d.flags & EXITED) return "Exiting";
    if (d.p->sched.suspend_count.load(std::memory_order_relaxed) > 0) return "Suspended";
    if (d.p->sched.waiting || d.p->sched.hibernating) return "Waiting";
    return "Scheduled";
}

// erts' extended state: the active, user and run-queue priorities, then the flags set.
std::string internal_state(const DumpedProcess& d) {
    static constexpr const char* prio[] = {"MAX", "HIGH", "NORMAL", "LOW"};
    const char* pr = prio[d.p->sched.prio & 3];
    std::string s = std::string("ACT_PRIO_") + pr + " | USR_PRIO_" + pr + " | PRQ_PRIO_" + pr;
    if (d.flags & QUEUED) s += " | IN_RUNQ";
    if (d.flags & RUNNING || d.caller) s += " | RUNNING";
    if (d.flags & PENDING) s += " | SIG_IN_Q";
    if (d.flags & EXITED) s += " | EXITING";
    if (d.p->trap_exit) s += " | TRAP_EXIT";
    if (d.p->message_queue_off_heap) s += " | OFF_HEAP_MSGQ";
    return s;
}

std::string current_call(VM& vm, Process* p) {
    if (p->sched.hibernating) return "erlang:hibernate/3";
    if (ModuleCode* mc = vm.code_at(p->pc))
        if (const FunctionInfo* fi = mc->function_at(p->pc)) return mfa_text(mc->name, fi->name, fi->arity);
    return mfa_text(p->sched.initial_m, p->sched.initial_f, p->sched.initial_a);
}

size_t heap_fragment_count(const Process* p) {
    size_t n = 0;
    for (HeapFragment* f = p->fragments; f; f = f->next) ++n;
    return n;
}

void write_link_list(DumpOutput& out, VM& vm, const Process* p) {
    const ProcessSched& s = p->sched;
    std::vector<std::string> items;
    for (Term l : s.links) items.push_back(id_text(l));
    for (const MonitorEntry& m : s.monitors) {
        std::string target = id_text(m.pid);
        if (m.name != NIL)  // monitored by name: {Name,Node}, as erts writes it
            target = "{" + std::string(atom_name(m.name)) + "," + std::string(atom_name(vm.node.name())) + "}";
        items.push_back("{to," + target + "," + ref_text(m.ref) + "}");
    }
    for (const MonitorEntry& m : s.monitored_by) items.push_back("{from," + id_text(m.pid) + "," + ref_text(m.ref) + "}");
    if (items.empty()) return;
    std::string line = "Link list: [";
    for (size_t i = 0; i < items.size(); ++i) line += (i ? ", " : "") + items[i];
    out.write(line + "]\n");
}

// A list of terms as erts' %T prints one: [A,B,C].
std::string term_list_text(const std::vector<Term>& items) {
    std::string s = "[";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + display_string(items[i]);
    return s + "]";
}

// The break menu's form of the stack (erts_stack_dump): the program counter, the live
// argument registers, then each slot from the stack pointer up as "y(N)     term", a
// frame's return address after its slots, as the frames lie (vm/process.hpp).
void write_stack_dump(DumpOutput& out, VM& vm, Process* p) {
    out.printf("Program counter: %s (%s)\n", hex_addr(p->pc).c_str(), code_location(vm, p->pc).c_str());
    out.printf("arity = %u\n", p->arity);
    for (uint32_t i = 0; i < p->arity && i < p->saved_x.size(); ++i)
        out.write("   " + display_string(p->saved_x[i]) + "\n");
    int y = 0;
    for (Term* sp = p->stop; sp < p->hend; ++sp) {
        Term t = *sp;
        if ((t.raw & tag::primary_mask) == tag::header) {
            const void* ra = reinterpret_cast<const void*>(t.raw);
            out.printf("\n%s Return addr %s (%s)\n", hex_addr(sp).c_str(), hex_addr(ra).c_str(), code_location(vm, ra).c_str());
            y = 0;
            continue;
        }
        char slot[16];
        std::snprintf(slot, sizeof slot, "y(%d)", y++);
        out.printf("%-8s ", slot);
        if (is_catch(t)) {
            const void* h = catch_address(t);
            out.printf("Catch %s (%s)\n", hex_addr(h).c_str(), code_location(vm, h).c_str());
        } else {
            out.write(display_string(t) + "\n");
        }
    }
}

}  // namespace

// erts' print_process_info. On the terminal (the break menu) it adds the message queue and
// the dictionary, and the stack in its "Stack dump:" form; in a crash dump those go to
// sections of their own (write_process_memory).
void write_process_info(DumpOutput& out, VM& vm, const DumpedProcess& d) {
    Process* p = d.p;
    out.printf("=proc:%s\n", id_text(p->pid).c_str());
    out.printf("State: %s\n", state_text(d));
    if (p->sched.registered_name != NIL) out.printf("Name: %s\n", std::string(atom_name(p->sched.registered_name)).c_str());
    if (p->sched.initial_m != NIL)
        out.printf("Spawned as: %s\n", mfa_text(p->sched.initial_m, p->sched.initial_f, p->sched.initial_a).c_str());
    if (!d.stopped) {
        // Its fields change under us: what erts too writes for a process running elsewhere.
        out.printf("Spawned by: %s\n", is_local_pid(p->parent) ? id_text(p->parent).c_str() : "[]");
        out.printf("Message queue length: %zu\n", p->mailbox_len.load(std::memory_order_relaxed));
        out.printf("Internal State: %s\n", internal_state(d).c_str());
        return;
    }
    // erts names the current call only while it knows one (p->current, set while a process
    // runs or traps); on the terminal every process shown is idle, so erl prints none.
    if (out.crash_dumping()) out.printf("Current call: %s\n", current_call(vm, p).c_str());
    out.printf("Spawned by: %s\n", is_local_pid(p->parent) ? id_text(p->parent).c_str() : "[]");
    out.printf("Message queue length: %zu\n", p->mailbox.size());
    if (!out.crash_dumping() && p->mailbox.size() > 0) {
        std::vector<Term> msgs;
        for (size_t i = 0; i < p->mailbox.size(); ++i) msgs.push_back(p->mailbox[i]);
        out.write("Message queue: " + term_list_text(msgs) + "\n");
    }
    out.printf("Number of heap fragments: %zu\n", heap_fragment_count(p));
    out.printf("Heap fragment data: %zu\n", p->fragment_words);
    write_link_list(out, vm, p);
    if (!out.crash_dumping() && is_list(p->dictionary)) {
        std::vector<Term> entries;
        for (Term l = p->dictionary; is_list(l); l = tail(l)) entries.push_back(head(l));
        out.write("Dictionary: " + term_list_text(entries) + "\n");
    }
    out.printf("Reductions: %lld\n", static_cast<long long>(p->reductions));
    size_t young = size_t(p->hend - p->heap), old = size_t(p->old_hend - p->old_heap);
    out.printf("Stack+heap: %zu\n", young);
    out.printf("OldHeap: %zu\n", old);
    out.printf("Heap unused: %zu\n", size_t(p->stop - p->htop));
    out.printf("OldHeap unused: %zu\n", size_t(p->old_hend - p->old_htop));
    out.printf("BinVHeap: %u\n", p->vheap_words);
    out.printf("OldBinVHeap: %u\n", p->old_vheap_words);
    out.printf("BinVHeap unused: %u\n", p->vheap_limit > p->vheap_words ? p->vheap_limit - p->vheap_words : 0u);
    out.printf("OldBinVHeap unused: %u\n", p->old_vheap_limit > p->old_vheap_words ? p->old_vheap_limit - p->old_vheap_words : 0u);
    size_t memory = sizeof(Process) + (young + old + p->fragment_words + p->mailbox.size()) * sizeof(Term);
    out.printf("Memory: %zu\n", memory);
    if (out.crash_dumping()) {
        out.printf("Program counter: %s (%s)\n", hex_addr(p->pc).c_str(), code_location(vm, p->pc).c_str());
        out.printf("arity = %u\n", p->arity);
    } else {
        out.write("Stack dump:\n");
        write_stack_dump(out, vm, p);
    }
    out.printf("Internal State: %s\n", internal_state(d).c_str());
}

std::string id_text(Term id) { return display_string(id); }

std::vector<DumpedProcess> stop_processes(VM& vm, Term caller) {
    std::vector<DumpedProcess> out;
    Clock::time_point until = Clock::now() + STOP_WAIT;
    for (Term pid : vm.procs.pids()) {
        Process* p = vm.procs.lookup(pid);
        if (!p) continue;  // gone meanwhile; the table's reference is kept: the process is never freed now
        uint32_t flags = p->sched.state.load(std::memory_order_acquire);
        bool dirty = p->sched.dirty.load(std::memory_order_acquire) != dirty_kind::NONE;
        // An exited process's heap may already be freed; one on a dirty scheduler runs on.
        bool stopped = !(flags & EXITED) && !dirty && take_running_bit(p, until);
        if (stopped) flags = p->sched.state.load(std::memory_order_acquire) & ~RUNNING;  // as it was when taken
        out.push_back({p, flags, stopped, pid == caller});
    }
    return out;
}

void write_process_summaries(DumpOutput& out, VM& vm, const std::vector<DumpedProcess>& procs) {
    for (const DumpedProcess& d : procs) write_process_info(out, vm, d);
}

// (declared in dump_sections.hpp) One frame at a time from the stack pointer up: a frame's y slots lie below its return
// address (vm/process.hpp); erts writes the return address first, then the slots.
void write_stack(DumpOutput& out, VM& vm, Process* p, HeapWriter* heap) {
    std::vector<std::string> slots;
    int y = 0;
    for (Term* sp = p->stop; sp < p->hend; ++sp) {
        Term t = *sp;
        if ((t.raw & tag::primary_mask) == tag::header) {
            const void* ra = reinterpret_cast<const void*>(t.raw);
            out.printf("%s:SReturn addr %s (%s)\n", hex_addr(sp).c_str(), hex_addr(ra).c_str(), code_location(vm, ra).c_str());
            for (const std::string& s : slots) out.write(s);
            slots.clear();
            y = 0;
            continue;
        }
        std::string slot = "y" + std::to_string(y++) + ":";
        if (is_catch(t)) {
            const void* h = catch_address(t);
            slot += "SCatch " + hex_addr(h) + " (" + code_location(vm, h) + ")";
        } else {
            std::string e = element_text(t);
            slot += e.empty() ? "SNon-value" : e;
            if (heap) heap->add_root(t);
        }
        slots.push_back(slot + "\n");
    }
    for (const std::string& s : slots) out.write(s);
}

void write_process_memory(DumpOutput& out, VM& vm, const std::vector<DumpedProcess>& procs) {
    for (const DumpedProcess& d : procs) {
        if (!d.stopped || out.cut()) continue;
        Process* p = d.p;
        if (is_sensitive(p)) continue;  // erts dumps nothing of a sensitive process's memory
        std::string id = id_text(p->pid);
        HeapWriter heap(out);
        if (is_list(p->dictionary)) {
            out.printf("=proc_dictionary:%s\n", id.c_str());
            for (Term l = p->dictionary; is_list(l); l = tail(l)) {
                out.write(element_text(head(l)) + "\n");
                heap.add_root(head(l));
            }
        }
        if (p->mailbox.size() > 0) {
            out.printf("=proc_messages:%s\n", id.c_str());
            for (size_t i = 0; i < p->mailbox.size(); ++i) {
                Term m = p->mailbox[i];
                std::string e = element_text(m);
                out.write((e.empty() ? std::string("SNon-value") : e) + ":N\n");
                heap.add_root(m);
            }
        }
        out.printf("=proc_stack:%s\n", id.c_str());
        write_stack(out, vm, p, &heap);
        out.printf("=proc_heap:%s\n", id.c_str());
        heap.write();
    }
}

}  // namespace beam::crashdump
