// Pid → process, and registered names. Sharded so senders on different schedulers rarely
// contend. A lookup returns the process with a reference held (release() when done), so a
// process that exits meanwhile is freed only after the last holder lets go.
#pragma once

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "vm/process.hpp"

namespace beam {

class ProcessTable {
public:
    void insert(Process* p);
    Process* lookup(Term pid);  // nullptr if there is no such live process
    void remove(Process* p);    // drops the table's reference
    static void retain(Process* p) { p->sched.refc.fetch_add(1, std::memory_order_relaxed); }
    static void release(Process* p);

    size_t count() const { return count_.load(std::memory_order_relaxed); }
    std::vector<Term> pids();

    // Registered names. register_name fails if the name is taken or the process has a name.
    bool register_name(Term name, Process* p);
    bool unregister_name(Term name);
    Term whereis(Term name);  // the pid, or am::undefined
    std::vector<Term> registered();

private:
    static constexpr size_t SHARDS = 64;
    struct Shard {
        std::mutex mutex;
        std::unordered_map<uint64_t, Process*> procs;
    };
    std::array<Shard, SHARDS> shards_;
    std::atomic<size_t> count_{0};
    std::mutex names_mutex_;
    std::unordered_map<Term, Term> names_;  // name -> pid
};

}  // namespace beam
