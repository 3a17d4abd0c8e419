// Dirty scheduler threads: a queue per kind, served in order.
#include "scheduler/dirty_schedulers.hpp"

#include <algorithm>

#include "scheduler/scheduler.hpp"
#include "vm/clocks.hpp"
#include "vm/nif_call.hpp"
#include "vm/process.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
thread_local uint8_t tls_kind = dirty_kind::NONE;
}

DirtySchedulers::DirtySchedulers(Schedulers& normal, int cpu, int io)
    : normal_(normal) {
    cpu_.kind = dirty_kind::CPU;
    cpu_.size = cpu_.online = cpu;
    io_.kind = dirty_kind::IO;
    io_.size = io_.online = io;
    for (Pool* pool : {&cpu_, &io_}) pool->clocks = std::make_unique<BusyClock[]>(size_t(std::max(pool->size, 1)));
}

void DirtySchedulers::busy_ns(int64_t now, bool with_io, std::vector<int64_t>& out) const {
    for (const Pool* pool : {&cpu_, &io_}) {
        if (pool == &io_ && !with_io) break;
        for (int i = 0; i < pool->size; ++i) out.push_back(pool->clocks[size_t(i)].busy_ns(now));
    }
}

int DirtySchedulers::set_cpu_online(int n) {
    int old;
    {
        std::lock_guard lock(cpu_.mutex);
        old = cpu_.online;
        cpu_.online = n;
    }
    cpu_.wake.notify_all();
    return old;
}

int DirtySchedulers::cpu_online() {
    std::lock_guard lock(cpu_.mutex);
    return cpu_.online;
}

size_t DirtySchedulers::queue_length(uint8_t kind, bool with_running) {
    Pool& pool = pool_of(kind);
    std::lock_guard lock(pool.mutex);
    return pool.queue.size() + (with_running ? size_t(pool.busy) : 0);
}

DirtySchedulers::~DirtySchedulers() {
    for (Pool* pool : {&cpu_, &io_}) {
        {
            std::lock_guard lock(pool->mutex);
            pool->stopping = true;
        }
        pool->wake.notify_all();
        for (std::thread& t : pool->threads) t.join();
    }
}

int DirtySchedulers::running() {
    int n = 0;
    for (Pool* pool : {&cpu_, &io_}) {
        std::lock_guard lock(pool->mutex);
        n += pool->busy;
    }
    return n;
}

uint8_t DirtySchedulers::current_kind() { return tls_kind; }

DirtySchedulers::Pool& DirtySchedulers::pool_of(uint8_t kind) { return kind == dirty_kind::IO ? io_ : cpu_; }

namespace {
// The step about to run dirty, as process_info reads it (Process::Rare::dirty_name).
void note_dirty_step(Process* p) {
    auto& r = p->rare();
    r.dirty_module.store(r.nif.module.raw, std::memory_order_relaxed);
    r.dirty_name.store(r.nif.name.raw, std::memory_order_relaxed);
    r.dirty_arity.store(r.nif.argc, std::memory_order_relaxed);
}
}  // namespace

void DirtySchedulers::submit(Process* p, uint8_t kind) {
    note_dirty_step(p);
    p->sched.dirty.store(kind, std::memory_order_release);
    Pool& pool = pool_of(kind);
    {
        std::lock_guard lock(pool.mutex);
        pool.queue.push_back(p);
        if (pool.idle == 0 && int(pool.threads.size()) < pool.online) {
            int index = int(pool.threads.size());
            pool.threads.emplace_back([this, &pool, index] { loop(pool, index); });
            return;  // the new thread takes it
        }
    }
    pool.wake.notify_one();
}

void DirtySchedulers::loop(Pool& pool, int index) {
    BusyClock& clock = pool.clocks[size_t(index)];
    tls_kind = pool.kind;
    ThreadNodeScope node_scope(normal_.vm()->node);  // term order and printing of ids (vm/node_identity.hpp)
    std::unique_lock lock(pool.mutex);
    for (;;) {
        ++pool.idle;
        pool.wake.wait(lock, [&] { return pool.stopping || (!pool.queue.empty() && pool.busy < pool.online); });
        --pool.idle;
        if (pool.queue.empty()) return;  // stopping
        Process* p = pool.queue.front();
        pool.queue.pop_front();
        ++pool.busy;
        lock.unlock();
        clock.busy(monotonic_ns());
        // As erts, a traced process is scheduled in and out on the dirty scheduler too.
        constexpr uint32_t SCHED = trace_flag::RUNNING | trace_flag::RUNNING_PROCS;
        bool traced = trace_flags_of(p) & SCHED;
        if (traced) trace_sched(p, "in");
        uint8_t next = run_dirty_nif(p);
        while (next == pool.kind) {  // a dirty step scheduled another here
            note_dirty_step(p);
            next = run_dirty_nif(p);
        }
        if (traced) trace_sched(p, "out");
        if (next != dirty_kind::NONE) {
            submit(p, next);
        } else {
            p->sched.dirty.store(dirty_kind::NONE, std::memory_order_release);
            normal_.give_back(p, true);  // continues at nif_resume on a normal scheduler
        }
        clock.idle(monotonic_ns());
        lock.lock();
        --pool.busy;
        if (!pool.queue.empty()) pool.wake.notify_one();  // one waited for a thread to be free
    }
}

}  // namespace beam
