// Pid → process, and registered names. Sharded so senders on different schedulers rarely
// contend. Registered names are per namespace (docs/namespaces.md): a process is registered
// in its own namespace, and a name not registered in a namespace is looked up in the root,
// so the root's servers (`user`, `standard_error`) stay reachable from every namespace. A lookup returns the process with a reference held (release() when done), so a
// process that exits meanwhile is freed only after the last holder lets go.
//
// The send path of a scheduler thread finds the receiver without the lock and without a
// reference (find_unretained): through a direct-mapped array of live processes by pid
// number, whose entries are only hints (a newer process may take an older one's entry; a
// miss falls back to lookup). A process whose last reference goes is not freed at once but
// retired (scheduler/quiescence.hpp), so such a reader may still look at it until its
// scheduler moves on to the next process.
#pragma once

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "scheduler/quiescence.hpp"
#include "scheduler/word_lock.hpp"
#include "vm/process.hpp"

namespace beam {

class ProcessTable {
public:
    ProcessTable();
    ~ProcessTable();
    void insert(Process* p);
    Process* lookup(Term pid);  // nullptr if there is no such live process
    // The live process `pid`, without a reference, or nullptr: not found among the hints, or
    // the calling thread is not a participant of quiescence() (then use lookup). Valid until
    // the caller's next quiescent state; the process may be exiting (its inbox then refuses).
    Process* find_unretained(Term pid) {
        if (!quiescence_.is_member()) return nullptr;
        Process* p = hints_[local_pid_number(pid) & HINT_MASK].load(std::memory_order_acquire);
        return p && p->pid == pid ? p : nullptr;
    }
    // A process to send to: found unretained when the calling thread may, else looked up
    // with a reference, which the Receiver drops when it goes.
    class Receiver {
    public:
        explicit Receiver(ProcessTable& t, Term pid) : p_(t.find_unretained(pid)) {
            if (!p_) {
                p_ = t.lookup(pid);
                retained_ = p_ != nullptr;
            }
        }
        ~Receiver() {
            if (retained_) release(p_);
        }
        Receiver(const Receiver&) = delete;
        Receiver& operator=(const Receiver&) = delete;
        Process* get() const { return p_; }
        Process* operator->() const { return p_; }
        explicit operator bool() const { return p_ != nullptr; }

    private:
        Process* p_;
        bool retained_ = false;
    };
    void remove(Process* p);    // drops the table's reference
    static void retain(Process* p) { p->sched.refc.fetch_add(1, std::memory_order_relaxed); }
    static void release(Process* p);
    Quiescence& quiescence() { return quiescence_; }

    size_t count() const { return count_.load(std::memory_order_relaxed); }
    std::vector<Term> pids();

    // The root namespace, where whereis looks for a name a namespace has not registered.
    void set_root(const Namespace* root) { root_ = root; }

    // Registered names, in p's namespace. register_name fails if the name is taken there or
    // the process has a name.
    bool register_name(Term name, Process* p);
    // A port registered in `ns` (erlang:register/2 takes ports too, as erts). Ports belong to
    // no namespace: the name is the registering process's. Fails if the name is taken there
    // or the port has a name. The caller holds the port's lock and has seen it open, so the
    // port's close (port_closed, under the same lock) cannot come in between.
    bool register_port(const Namespace* ns, Term name, Term port);
    // A closing port drops its name, if it has one.
    void port_closed(Term port);
    // The name of a registered port, else NIL.
    Term port_name(Term port);
    // Removes `name`; with `only_pid`, only while that process holds it.
    bool unregister_name(const Namespace* ns, Term name, Term only_pid = NIL, Term* was = nullptr);
    // The pid or port registered as `name` in `ns`, else in the root, else am::undefined.
    Term whereis(const Namespace* ns, Term name);
    std::vector<Term> registered(const Namespace* ns);  // the names registered in `ns` itself

private:
    static constexpr size_t HINTS = size_t(1) << 14;  // 128 KB, zero pages until used
    static constexpr uint64_t HINT_MASK = HINTS - 1;
    std::atomic<Process*>* hints_;
    Quiescence quiescence_;
    static constexpr size_t SHARDS = 64;
    struct Shard {
        WordLock mutex;  // held for a lookup's few instructions: no futex call uncontended
        std::unordered_map<uint64_t, Process*> procs;
    };
    std::array<Shard, SHARDS> shards_;
    std::atomic<size_t> count_{0};
    struct NameKey {
        const Namespace* ns;
        Term name;
        bool operator==(const NameKey&) const = default;
    };
    struct NameKeyHash {
        size_t operator()(const NameKey& k) const noexcept {
            return std::hash<const void*>{}(k.ns) * 31 + std::hash<Word>{}(k.name.raw);
        }
    };
    const Namespace* root_ = nullptr;
    std::mutex names_mutex_;
    std::unordered_map<NameKey, Term, NameKeyHash> names_;  // (namespace, name) -> pid or port
    // Registered ports' names (a process keeps its own in Process::sched), and how many there
    // are, so that a closing port that has none need not take names_mutex_.
    std::unordered_map<Word, NameKey> port_names_;
    std::atomic<size_t> port_name_count_{0};
};

}  // namespace beam
