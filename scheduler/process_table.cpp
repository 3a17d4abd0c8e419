#include "scheduler/process_table.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string_view>

#include "vm/atom_table.hpp"
#include "vm/code_table.hpp"
#include "vm/vm.hpp"

namespace beam {

ProcessTable::ProcessTable()
    : hints_(static_cast<std::atomic<Process*>*>(std::calloc(HINTS, sizeof(std::atomic<Process*>)))) {
    if (!hints_) throw std::bad_alloc();
}

ProcessTable::~ProcessTable() { std::free(hints_); }

void ProcessTable::insert(Process* p) {
    uint64_t n = local_pid_number(p->pid);
    Shard& s = shards_[n % SHARDS];
    std::lock_guard lock(s.mutex);
    s.procs.emplace(n, p);
    count_.fetch_add(1, std::memory_order_relaxed);
    hints_[n & HINT_MASK].store(p, std::memory_order_release);
}

Process* ProcessTable::lookup(Term pid) {
    if (!is_local_pid(pid)) return nullptr;
    uint64_t n = local_pid_number(pid);
    Shard& s = shards_[n % SHARDS];
    std::lock_guard lock(s.mutex);
    auto it = s.procs.find(n);
    if (it == s.procs.end()) return nullptr;
    retain(it->second);
    return it->second;
}

void ProcessTable::remove(Process* p) {
    uint64_t n = local_pid_number(p->pid);
    Shard& s = shards_[n % SHARDS];
    {
        std::lock_guard lock(s.mutex);
        if (s.procs.erase(n) == 0) return;
        // seq_cst even when it fails: it orders the retirement after every reader that found
        // p here (scheduler/quiescence.hpp).
        Process* expected = p;
        hints_[n & HINT_MASK].compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst);
    }
    count_.fetch_sub(1, std::memory_order_relaxed);
    if (p->sched.registered_name != NIL) unregister_name(p->ns, p->sched.registered_name, p->pid);
    release(p);
}

void ProcessTable::release(Process* p) {
    if (p->sched.refc.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (p->vm)
        p->vm->procs.quiescence_.retire(p);
    else
        delete p;  // a process outside any VM (unit tests)
}

std::vector<Term> ProcessTable::pids() {
    std::vector<Term> out;
    for (Shard& s : shards_) {
        std::lock_guard lock(s.mutex);
        for (auto& [n, p] : s.procs) out.push_back(p->pid);
    }
    std::sort(out.begin(), out.end(), [](Term a, Term b) { return a.raw < b.raw; });
    return out;
}

bool ProcessTable::register_name(Term name, Process* p) {
    std::lock_guard lock(names_mutex_);
    NameKey key{p->ns, name};
    if (names_.contains(key) || p->sched.registered_name != NIL) return false;
    names_.emplace(key, p->pid);
    std::lock_guard info(p->sched.info_mutex);
    p->sched.registered_name = name;
    return true;
}

bool ProcessTable::unregister_name(const Namespace* ns, Term name, Term only_pid, Term* was) {
    Term pid;
    {
        std::lock_guard lock(names_mutex_);
        auto it = names_.find(NameKey{ns, name});
        if (it == names_.end()) return false;
        // A dying process drops its own name only: unregister/1 may have taken it from it
        // and register/2 given it to another process meanwhile.
        if (only_pid != NIL && it->second != only_pid) return false;
        pid = it->second;
        names_.erase(it);
        if (port_names_.erase(pid.raw)) port_name_count_.fetch_sub(1, std::memory_order_relaxed);
    }
    if (was) *was = pid;
    if (!is_local_pid(pid)) return true;
    if (Process* p = lookup(pid)) {
        {
            std::lock_guard info(p->sched.info_mutex);
            if (p->sched.registered_name == name) p->sched.registered_name = NIL;
        }
        release(p);
    }
    return true;
}

bool ProcessTable::register_port(const Namespace* ns, Term name, Term port) {
    std::lock_guard lock(names_mutex_);
    NameKey key{ns, name};
    if (names_.contains(key) || port_names_.contains(port.raw)) return false;
    names_.emplace(key, port);
    port_names_.emplace(port.raw, key);
    port_name_count_.fetch_add(1, std::memory_order_relaxed);
    return true;
}

void ProcessTable::port_closed(Term port) {
    if (port_name_count_.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard lock(names_mutex_);
    auto it = port_names_.find(port.raw);
    if (it == port_names_.end()) return;
    names_.erase(it->second);
    port_names_.erase(it);
    port_name_count_.fetch_sub(1, std::memory_order_relaxed);
}

Term ProcessTable::port_name(Term port) {
    if (port_name_count_.load(std::memory_order_relaxed) == 0) return NIL;
    std::lock_guard lock(names_mutex_);
    auto it = port_names_.find(port.raw);
    return it == port_names_.end() ? NIL : it->second.name;
}

// A restricted namespace (vm/sandbox.hpp) sees the root's I/O servers, and a root server that
// acts for whoever asks only when its policy allows what that server does (file_server_2
// reads files, code_server loads code, rex runs any call in the root): any other root name
// would take its processes past their policy.
static bool root_names_visible(const Namespace* ns, Term name) {
    const SandboxPolicy& policy = ns->policy();
    if (policy.allowed == ALL_CAPABILITIES) return true;
    std::string_view n = atom_name(name);
    if (n == "user" || n == "standard_error") return true;
    if (n == "file_server_2" || n == "erl_prim_loader") return policy.allows(Capability::File);
    // OTP's error_handler loads a module on its first call through code_server: a sandboxed
    // process must be able to call lists or gen_tcp for the first time. (The gap this leaves
    // is in docs/namespaces.md: raw requests to code_server.)
    if (n == "code_server") return policy.allows(Capability::CodeLoad);
    if (n == "inet_db" || n == "net_kernel" || n == "erl_epmd" || n == "auth" || n == "global_name_server" ||
        n == "global_group" || n == "rex" || n == "socket_registry")
        return policy.allows(Capability::Network);
    return false;
}

Term ProcessTable::whereis(const Namespace* ns, Term name) {
    std::lock_guard lock(names_mutex_);
    auto it = names_.find(NameKey{ns, name});
    if (it == names_.end() && ns != root_ && root_names_visible(ns, name)) it = names_.find(NameKey{root_, name});
    return it == names_.end() ? am::undefined : it->second;
}

std::vector<Term> ProcessTable::registered(const Namespace* ns) {
    std::lock_guard lock(names_mutex_);
    std::vector<Term> out;
    for (auto& [key, pid] : names_)
        if (key.ns == ns) out.push_back(key.name);
    return out;
}

}  // namespace beam
