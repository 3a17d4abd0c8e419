// Process aliases (OTP 24+): a reference that works as an address. A message sent to an
// active alias reaches the process that made it; once the alias is deactivated, messages to
// it are dropped. As in OTP, whether an alias is active is decided by its owner when it takes
// the message in, so a message still on its way when unalias/1 runs is dropped too.
//
// Two tables: the VM-wide route from a reference to its owner (any sender reads it), and the
// owner's own list of active aliases with how each ends (ProcessSched::aliases).
#pragma once

#include <array>
#include <mutex>
#include <unordered_map>

#include "scheduler/process_sched.hpp"
#include "scheduler/word_lock.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;
class VM;

// Sharded by reference number, each shard under a WordLock: every gen_server:call makes an
// alias, answers through it and drops it, so one table-wide std::mutex was taken three times
// a call by every process on every scheduler (pthread_mutex_lock and unlock were 3% of
// bench/real/svc_genserver_ets at +S 1).
class AliasRoutes {
public:
    void add(uint64_t ref, Term pid) {
        Shard& s = shard(ref);
        std::lock_guard lock(s.mutex);
        s.owners[ref] = pid;
    }
    void remove(uint64_t ref) {
        Shard& s = shard(ref);
        std::lock_guard lock(s.mutex);
        s.owners.erase(ref);
    }
    // The owner's pid, or NIL when the reference is no (longer an) alias.
    Term owner(uint64_t ref) {
        Shard& s = shard(ref);
        std::lock_guard lock(s.mutex);
        auto it = s.owners.find(ref);
        return it == s.owners.end() ? NIL : it->second;
    }

private:
    static constexpr size_t SHARDS = 64;
    struct alignas(64) Shard {
        WordLock mutex;
        std::unordered_map<uint64_t, Term> owners;
    };
    Shard& shard(uint64_t ref) { return shards_[ref % SHARDS]; }
    std::array<Shard, SHARDS> shards_;
};

// Owner side. Makes the reference `ref` (counter value) an alias of `p`.
void alias_activate(Process* p, uint64_t ref, AliasKind kind);
// unalias/1: true if `ref` was an active alias of `p`.
bool alias_deactivate(Process* p, uint64_t ref);
// A message through alias `ref` is being taken in: false if it must be dropped. A reply
// alias ends here; a reply_demonitor one also ends its monitor.
bool alias_accepts(Process* p, uint64_t ref);
// The monitor `ref` has ended (demonitor, DOWN): its {alias, demonitor | reply_demonitor}
// alias ends with it; an explicit_unalias one stays.
void alias_monitor_ended(Process* p, uint64_t ref);
// The dying process's aliases leave the route table.
void alias_drop_all(Process* p);

// Sends `msg` to the alias `ref` (a local reference): dropped if no process has it as an
// alias now; otherwise checked again by the owner when it takes the message in.
void send_to_alias(Process* p, Term ref, Term msg);

// Removes the monitor with reference number `ref` that `p` holds, telling its target; false
// if `p` has no such monitor. Used by demonitor/1,2 and by reply_demonitor aliases.
bool remove_monitor(Process* p, uint64_t ref);

// The reference number of a monitor entry's id words.
inline uint64_t ref_number_of(const Word w[3]) { return w[0] | (w[1] << 18) | (w[2] << 50); }

}  // namespace beam
