// erlang:process_info/1,2. For the calling process every item is read directly. For another
// process, the items its owner keeps under info_mutex (links, monitors, names, flags) and the
// message count are read at once; items that live on its heap (messages, dictionary) would need
// the owner's cooperation and are refused with a clear error until that exists.
#include <cstdio>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/interp.hpp"
#include "vm/module.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term mfa_tuple(Process* p, Term m, Term f, uint32_t a) { return make_tuple(*p, {m, f, make_small(a)}); }

Term current_function(Process* p, Process* q) {
    if (q->sched.hibernating) return mfa_tuple(p, am::erlang, atom("hibernate"), 3);
    if (ModuleCode* mc = p->vm->code_at(q->pc))
        if (const FunctionInfo* fi = mc->function_at(q->pc)) return mfa_tuple(p, mc->name, fi->name, fi->arity);
    return mfa_tuple(p, q->sched.initial_m, q->sched.initial_f, q->sched.initial_a);
}

Term monitors_list(Process* p, const std::vector<MonitorEntry>& ms, bool by) {
    std::vector<Term> items;
    for (const MonitorEntry& m : ms) {
        if (by) items.push_back(m.pid);
        else if (m.name != NIL) items.push_back(make_tuple(*p, {am::process, make_tuple(*p, {m.name, am::nonode_at_nohost})}));
        else items.push_back(make_tuple(*p, {am::process, m.pid}));
    }
    return make_list_from(*p, items.data(), items.size());
}

Term status_of(Process* p, Process* q) {
    if (p == q) return atom("running");
    uint32_t st = q->sched.state.load(std::memory_order_acquire);
    if (st & run_state::EXITED) return atom("exiting");
    if (st & run_state::RUNNING) return atom("running");
    if (st & run_state::QUEUED) return atom("runnable");
    return q->sched.waiting ? atom("waiting") : atom("runnable");
}

// NON_VALUE: not an item (badarg). `owner_only` is set for items only the owner can read.
Term item_value(Process* p, Process* q, Term item, bool* owner_only) {
    bool self = p == q;
    ProcessSched& qs = q->sched;
    if (item == atom("message_queue_len")) return make_small(SWord(q->mailbox_len.load(std::memory_order_relaxed)));
    if (item == atom("links")) return make_list_from(*p, qs.links.data(), qs.links.size());
    if (item == atom("monitors")) return monitors_list(p, qs.monitors, false);
    if (item == atom("monitored_by")) return monitors_list(p, qs.monitored_by, true);
    if (item == atom("registered_name")) return qs.registered_name;
    if (item == atom("trap_exit")) return make_bool(q->trap_exit);
    if (item == atom("priority")) return q->priority;
    if (item == atom("status")) return status_of(p, q);
    if (item == atom("initial_call")) return mfa_tuple(p, qs.initial_m, qs.initial_f, qs.initial_a);
    if (item == atom("group_leader")) return q->group_leader == NIL ? q->pid : q->group_leader;
    if (item == atom("error_handler")) return am::error_handler;
    if (item == atom("suspending")) return NIL;
    if (item == atom("current_function") && !(qs.state.load() & run_state::RUNNING)) return current_function(p, q);
    if (item == atom("garbage_collection")) return NIL;
    if (!self) {
        *owner_only = true;
        return NON_VALUE;
    }
    if (item == atom("current_function")) return current_function(p, q);
    if (item == atom("messages")) {
        std::vector<Term> msgs(q->mailbox.begin(), q->mailbox.end());
        return make_list_from(*p, msgs.data(), msgs.size());
    }
    if (item == atom("dictionary")) return q->dictionary;
    if (item == atom("heap_size")) return make_small(SWord(q->hend - q->heap));
    if (item == atom("total_heap_size"))
        return make_small(SWord((q->hend - q->heap) + (q->old_hend - q->old_heap)));
    if (item == atom("stack_size")) return make_small(SWord(q->hend - q->stop));
    if (item == atom("reductions")) return make_small(q->reductions);
    return NON_VALUE;
}

// One {Item, Value}; for registered_name of an unregistered process OTP gives [].
Term item_pair(Process* p, Process* q, Term item) {
    bool owner_only = false;
    Term v;
    {
        std::lock_guard lock(q->sched.info_mutex);
        v = item_value(p, q, item, &owner_only);
    }
    if (owner_only) {
        std::fprintf(stderr, "beamvm: process_info(Other, %s) is not implemented yet\n",
                     std::string(atom_name(item)).c_str());
        return p->error(make_tuple(*p, {atom("not_implemented"), item}));
    }
    if (is_non_value(v)) return p->badarg();
    if (item == atom("registered_name") && v == NIL) return NIL;
    return make_tuple(*p, {item, v});
}

Term with_target(Process* p, Term pid, Term (*fn)(Process*, Process*, Term), Term arg) {
    if (!is_pid(pid)) return p->badarg();
    if (pid == p->pid) return fn(p, p, arg);
    Process* q = p->vm->procs.lookup(pid);
    if (!q || (q->sched.state.load() & run_state::EXITED)) {
        if (q) ProcessTable::release(q);
        return am::undefined;
    }
    Term r = fn(p, q, arg);
    ProcessTable::release(q);
    return r;
}

Term info_items(Process* p, Process* q, Term items) {
    if (is_atom(items)) return item_pair(p, q, items);
    std::vector<Term> out;
    for (Term l = items; is_list(l); l = tail(l)) {
        if (!is_atom(head(l))) return p->badarg();
        Term r = item_pair(p, q, head(l));
        if (is_non_value(r)) return r;
        // In a list, an unregistered process's name is {registered_name, []}.
        out.push_back(r == NIL ? make_tuple(*p, {head(l), NIL}) : r);
    }
    return make_list_from(*p, out.data(), out.size());
}

Term info_default(Process* p, Process* q, Term) {
    static const char* items[] = {"current_function", "initial_call", "status", "message_queue_len", "links",
                                  "dictionary", "trap_exit", "error_handler", "priority", "group_leader",
                                  "total_heap_size", "heap_size", "stack_size", "reductions",
                                  "garbage_collection", "suspending"};
    std::vector<Term> out;
    if (q->sched.registered_name != NIL) out.push_back(item_pair(p, q, atom("registered_name")));
    for (const char* it : items) {
        Term r = item_pair(p, q, atom(it));
        if (is_non_value(r)) return r;
        out.push_back(r);
    }
    return make_list_from(*p, out.data(), out.size());
}

Term process_info_1(Process* p, const Term* a) { return with_target(p, a[0], &info_default, NIL); }
Term process_info_2(Process* p, const Term* a) { return with_target(p, a[0], &info_items, a[1]); }

const BifSpec table[] = {
    {"erlang", "process_info", 1, &process_info_1},
    {"erlang", "process_info", 2, &process_info_2},
};

}  // namespace

std::span<const BifSpec> process_info_bifs() { return table; }

}  // namespace beam
