#include "scheduler/aliases.hpp"

#include <algorithm>

#include "scheduler/signals.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

std::vector<AliasEntry>::iterator find_alias(Process* p, uint64_t ref) {
    auto& as = p->sched.aliases;
    return std::find_if(as.begin(), as.end(), [&](const AliasEntry& a) { return a.ref == ref; });
}

void erase_alias(Process* p, std::vector<AliasEntry>::iterator it) {
    p->vm->aliases.remove(it->ref);
    p->sched.aliases.erase(it);
}

}  // namespace

void alias_activate(Process* p, uint64_t ref, AliasKind kind) {
    p->sched.aliases.push_back({ref, kind});
    p->vm->aliases.add(ref, p->pid);
}

bool alias_deactivate(Process* p, uint64_t ref) {
    auto it = find_alias(p, ref);
    if (it == p->sched.aliases.end()) return false;
    erase_alias(p, it);
    return true;
}

bool alias_accepts(Process* p, uint64_t ref) {
    auto it = find_alias(p, ref);
    if (it == p->sched.aliases.end()) return false;
    AliasKind kind = it->kind;
    if (kind == AliasKind::Reply || kind == AliasKind::ReplyDemonitor) erase_alias(p, it);
    if (kind == AliasKind::ReplyDemonitor) remove_monitor(p, ref);
    return true;
}

void alias_monitor_ended(Process* p, uint64_t ref) {
    auto it = find_alias(p, ref);
    if (it == p->sched.aliases.end()) return;
    if (it->kind == AliasKind::Demonitor || it->kind == AliasKind::ReplyDemonitor) erase_alias(p, it);
}

void alias_drop_all(Process* p) {
    for (const AliasEntry& a : p->sched.aliases) p->vm->aliases.remove(a.ref);
    p->sched.aliases.clear();
}

void send_to_alias(Process* p, Term ref, Term msg) {
    uint64_t n = ref_number(ref);
    Term owner = p->vm->aliases.owner(n);
    if (owner == NIL) return;
    if (owner == p->pid) p->sched.self_via_inbox = true;
    if (!p->seq_trace) {
        post_message(*p->vm, owner, msg, seq_kind::NO_TOKEN, n);
        return;
    }
    // With seq_trace state: the signal carries the token (vm/seq_trace.hpp).
    auto* s = new Signal{SignalKind::Message};
    s->alias = n;
    seq_fill_signal(p, s, msg, seq_trace_outgoing(p, owner, ref, msg));
    if (!deliver_signal(*p->vm, owner, s)) {
        discard_buffer(s->data);
        delete s;
    }
}

bool remove_monitor(Process* p, uint64_t ref) {
    auto& mons = p->sched.monitors;
    // From the newest: a call's monitor is the last one made.
    auto rit = std::find_if(std::make_reverse_iterator(mons.end()), std::make_reverse_iterator(mons.begin()),
                            [&](const MonitorEntry& m) { return ref_number_of(m.ref) == ref; });
    if (rit == std::make_reverse_iterator(mons.begin())) return false;
    auto it = std::prev(rit.base());
    auto* s = new Signal{SignalKind::Demonitor};
    s->from = p->pid;
    std::copy(it->ref, it->ref + 3, s->ref);
    Term target = it->pid;
    {
        std::lock_guard lock(p->sched.info_mutex);
        mons.erase(it);
    }
    if (!deliver_signal(*p->vm, target, s)) delete s;
    alias_monitor_ended(p, ref);
    return true;
}

}  // namespace beam
