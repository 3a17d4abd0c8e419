// Dirty schedulers (erts' dirty CPU and dirty I/O schedulers): threads that run the NIF steps
// flagged ERL_NIF_DIRTY_JOB_CPU_BOUND or _IO_BOUND (vm/nif_call.hpp), so that a NIF that
// blocks or computes for long holds no normal scheduler. A process handed here stays RUNNING
// for the normal schedulers (signals to it wait in its queue, marked PENDING) and
// p->sched.dirty says where it is; when its dirty step returns, it goes back to a normal
// scheduler, which takes in its signals (an exit signal ends it then) and continues the call.
// A pool's threads start as its jobs need them.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "scheduler/wall_time.hpp"

namespace beam {

class Process;
class Schedulers;

class DirtySchedulers {
public:
    DirtySchedulers(Schedulers& normal, int cpu, int io);
    ~DirtySchedulers();  // waits for the steps that are running

    int cpu_count() const { return cpu_.size; }
    int io_count() const { return io_.size; }
    // erlang:system_flag(dirty_cpu_schedulers_online, N), 1 <= N <= cpu_count(): at most N
    // dirty CPU threads run steps. Returns the previous number.
    int set_cpu_online(int n);
    int cpu_online();
    // Steps waiting in the queue of `kind`, plus the ones running if `with_running`
    // (statistics(run_queue_lengths_all), statistics(active_tasks_all)).
    size_t queue_length(uint8_t kind, bool with_running);
    // Steps running now, of both kinds.
    int running();
    // Runs p's dirty step (p->rare().nif) on a thread of `kind` (dirty_kind::CPU or IO).
    void submit(Process* p, uint8_t kind);
    // dirty_kind of the dirty scheduler running on this thread, dirty_kind::NONE elsewhere.
    static uint8_t current_kind();
    // Busy nanoseconds at `now` of each dirty CPU scheduler (0 for a thread not started
    // yet), then, with `with_io`, of each dirty I/O one, appended to `out`.
    void busy_ns(int64_t now, bool with_io, std::vector<int64_t>& out) const;

private:
    struct Pool {
        uint8_t kind;
        int size;
        std::mutex mutex;
        std::condition_variable wake;
        std::deque<Process*> queue;
        // A thread starts when a job finds none idle, up to `size` of them.
        std::vector<std::thread> threads;
        int idle = 0;
        int online;   // threads allowed to run steps at once
        int busy = 0;  // running steps
        bool stopping = false;
        std::unique_ptr<BusyClock[]> clocks;  // one per thread that may start, busy while it runs a step
    };
    void loop(Pool& pool, int index);
    Pool& pool_of(uint8_t kind);

    Schedulers& normal_;
    Pool cpu_, io_;
};

}  // namespace beam
