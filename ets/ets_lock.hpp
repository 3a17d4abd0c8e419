// A table's reader-writer lock (ets/ets_table.hpp): one 32-bit word, readers counted in it,
// a short spin before a thread sleeps on the word (a futex).
//
// Why not std::shared_mutex (glibc's pthread_rwlock): it sleeps in the kernel at the first
// conflict. ETS critical sections are a lookup or an insert and a copy, a few hundred
// nanoseconds, so a waiter that sleeps pays two futex calls and a context switch for a wait
// that spinning ends sooner. Measured on bench/real/svc_genserver_ets.erl at +S 2 (clients
// reading with ets:lookup while the server writes): the rwlock's futex waits were a sixth of
// the run's futex calls.
//
// Waiting writers are preferred: a writer that waits sets WRITER_WAITING, which keeps new
// readers out until a writer has had the lock, so a stream of readers cannot starve it.
//
// Reader groups (read_concurrency, as erts' reader groups): readers count themselves in one of
// GROUPS counters, each on a cache line of its own and chosen by the thread, instead of in the
// shared word, so readers on different schedulers write no common line. A writer sets WRITER in
// the word, then waits for every group to drain; a reader that finds WRITER set after counting
// itself backs out and waits for the word to change. The reader's count-then-look and the
// writer's set-then-look are both sequentially consistent, so one of the two always sees the
// other. Writing costs more (a line read per group in use), as in erts: for tables read far
// more often. erts has as many groups as schedulers; here a writer drains only the groups
// that have had a reader (used_groups_), so with two schedulers it reads two lines, not
// GROUPS. svc_genserver_ets at +S 2 (clients read, the server writes each call), interleaved
// fastest/median of 21: 0.192/0.204 s with all eight drained, 0.187/0.197 with the marked
// ones (0.183/0.203 with no reader groups or stripes at all; +S 1 0.185/0.193).
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <memory>

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace beam {

class EtsLock {
public:
    EtsLock() = default;
    EtsLock(const EtsLock&) = delete;
    EtsLock& operator=(const EtsLock&) = delete;

    // Before the lock is shared with other threads: readers count in groups from now on.
    void use_reader_groups() { groups_.reset(new Group[GROUPS]); }

    bool try_lock_shared() {
        if (groups_) return try_lock_shared_grouped(my_group());
        uint32_t v = state_.load(std::memory_order_relaxed);
        return !(v & (WRITER | WRITER_WAITING)) &&
               state_.compare_exchange_strong(v, v + 1, std::memory_order_acquire, std::memory_order_relaxed);
    }
    void lock_shared() {
        if (!try_lock_shared()) [[unlikely]] lock_shared_slow();
    }
    void unlock_shared() {
        if (groups_) {
            leave_group(my_group());
            return;
        }
        uint32_t v = state_.fetch_sub(1, std::memory_order_release);
        if ((v & READERS) == 1 && (v & SLEEPERS)) wake_all();
    }

    void lock() {
        if (!try_take_writer()) [[unlikely]] lock_slow();
        if (groups_) drain_groups();
    }
    void unlock() {
        uint32_t v = state_.fetch_and(~WRITER, std::memory_order_release);
        if (v & SLEEPERS) wake_all();
    }

private:
    static constexpr uint32_t WRITER = 1u << 31;
    static constexpr uint32_t WRITER_WAITING = 1u << 30;
    static constexpr uint32_t SLEEPERS = 1u << 29;  // someone may sleep on the word
    static constexpr uint32_t READERS = SLEEPERS - 1;
    // About 2-4 us of pause instructions: longer than a table operation, shorter than the
    // futex wait and wake-up it saves.
    static constexpr int SPINS = 256;

    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    void sleep_on(uint32_t v) {
        syscall(SYS_futex, reinterpret_cast<uint32_t*>(&state_), FUTEX_WAIT_PRIVATE, v, nullptr, nullptr, 0);
    }
    void wake_all() {
        // Every sleeper looks again; those that still cannot go set SLEEPERS again.
        state_.fetch_and(~SLEEPERS, std::memory_order_relaxed);
        syscall(SYS_futex, reinterpret_cast<uint32_t*>(&state_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
    }
    // Sleeps until the word changes from `v`, having marked that a sleeper is there.
    void wait_for_change(uint32_t v) {
        if (!(v & SLEEPERS) &&
            !state_.compare_exchange_strong(v, v | SLEEPERS, std::memory_order_relaxed, std::memory_order_relaxed))
            return;  // it changed meanwhile: look again
        sleep_on(v | SLEEPERS);
    }

    // WRITER, if no one holds it and no reader counts in the word (group readers are drained
    // after: lock()).
    bool try_take_writer() {
        uint32_t v = state_.load(std::memory_order_relaxed);
        return !(v & (WRITER | READERS)) &&
               state_.compare_exchange_strong(v, (v | WRITER) & ~WRITER_WAITING, std::memory_order_seq_cst,
                                              std::memory_order_relaxed);
    }

    // ---- reader groups ----
    static constexpr unsigned GROUPS = 8;
    struct alignas(64) Group {
        std::atomic<uint32_t> readers{0};
    };
    // A thread's group: threads numbered in the order they first read a grouped lock, so the
    // first GROUPS threads (the schedulers, in practice) have one each.
    static unsigned my_group() {
        static std::atomic<unsigned> next{0};
        thread_local unsigned g = next.fetch_add(1, std::memory_order_relaxed) % GROUPS;
        return g;
    }
    bool try_lock_shared_grouped(unsigned g) {
        // A group's first reader marks it in use (once per lock and thread group): a writer
        // drains only the groups marked. The reader's mark (or its load of the mark) comes
        // before its count and its look at the word, the writer's look at the marks after its
        // WRITER: all sequentially consistent, so a reader the writer does not wait for sees
        // WRITER and backs out.
        uint32_t bit = 1u << g;
        if (!(used_groups_.load(std::memory_order_seq_cst) & bit)) [[unlikely]]
            used_groups_.fetch_or(bit, std::memory_order_seq_cst);
        groups_[g].readers.fetch_add(1, std::memory_order_seq_cst);
        if (!(state_.load(std::memory_order_seq_cst) & WRITER)) [[likely]] return true;
        leave_group(g);  // a writer holds it or is draining the groups: let it go first
        return false;
    }
    void leave_group(unsigned g) {
        std::atomic<uint32_t>& n = groups_[g].readers;
        // The last reader of a group a writer waits on wakes it (drain_groups sleeps on n).
        if (n.fetch_sub(1, std::memory_order_seq_cst) == 1 && (state_.load(std::memory_order_seq_cst) & WRITER))
            syscall(SYS_futex, reinterpret_cast<uint32_t*>(&n), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
    }
    // Holding WRITER: waits until no reader is counted in any group.
    void drain_groups() {
        for (uint32_t used = used_groups_.load(std::memory_order_seq_cst); used; used &= used - 1) {
            std::atomic<uint32_t>& n = groups_[__builtin_ctz(used)].readers;
            for (int i = 0;; ++i) {
                uint32_t v = n.load(std::memory_order_seq_cst);
                if (v == 0) break;
                if (i < SPINS) pause();
                else syscall(SYS_futex, reinterpret_cast<uint32_t*>(&n), FUTEX_WAIT_PRIVATE, v, nullptr, nullptr, 0);
            }
        }
    }

    [[gnu::noinline]] void lock_shared_slow() {
        if (groups_) {
            unsigned g = my_group();
            for (int i = 0;; ++i) {
                uint32_t v = state_.load(std::memory_order_relaxed);
                if (!(v & WRITER)) {
                    if (try_lock_shared_grouped(g)) return;
                    continue;
                }
                if (i < SPINS) pause();
                else wait_for_change(v);
            }
        }
        for (int i = 0;; ++i) {
            uint32_t v = state_.load(std::memory_order_relaxed);
            if (!(v & (WRITER | WRITER_WAITING))) {
                if (state_.compare_exchange_weak(v, v + 1, std::memory_order_acquire, std::memory_order_relaxed)) return;
                continue;
            }
            if (i < SPINS) pause();
            else wait_for_change(v);
        }
    }
    [[gnu::noinline]] void lock_slow() {
        for (int i = 0;; ++i) {
            uint32_t v = state_.load(std::memory_order_relaxed);
            if (!(v & (WRITER | READERS))) {
                if (state_.compare_exchange_weak(v, (v | WRITER) & ~WRITER_WAITING, std::memory_order_seq_cst,
                                                 std::memory_order_relaxed))
                    return;
                continue;
            }
            if (!(v & WRITER_WAITING)) {
                state_.compare_exchange_weak(v, v | WRITER_WAITING, std::memory_order_relaxed, std::memory_order_relaxed);
                continue;
            }
            if (i < SPINS) pause();
            else wait_for_change(v);
        }
    }

    std::atomic<uint32_t> state_{0};
    // Bit g: group g has had a reader (set once, never cleared). With two schedulers a writer
    // then looks at two group lines, not GROUPS.
    std::atomic<uint32_t> used_groups_{0};
    std::unique_ptr<Group[]> groups_;  // null: readers count in state_
};

}  // namespace beam

namespace beam {

// A table's locks (ets/ets_table.hpp): one EtsLock, or for a hash table made with
// write_concurrency, STRIPES of them, each owning the hash buckets whose index is its own
// modulo STRIPES (bucket counts are powers of two of at least 256, so a key's stripe is the
// low bits of its hash whatever the table's size). An operation on one key takes that key's
// stripe (stripe_for); one on the whole table (a scan, a resize, several objects at once)
// takes every stripe, in order, through lock()/lock_shared(), so std::unique_lock and
// std::shared_lock work on it as on the single lock.
class EtsTableLock {
public:
    static constexpr unsigned STRIPES = 16;
    EtsTableLock() : locks_(new Padded[1]) {}
    EtsTableLock(const EtsTableLock&) = delete;
    EtsTableLock& operator=(const EtsTableLock&) = delete;

    // Before the table is shared with other threads (ets:new).
    void stripe() {
        locks_.reset(new Padded[STRIPES]);
        n_ = STRIPES;
    }
    // read_concurrency: every lock counts its readers in groups (EtsLock::use_reader_groups).
    void reader_groups() {
        for (unsigned i = 0; i < n_; ++i) locks_[i].lock.use_reader_groups();
    }
    bool striped() const { return n_ > 1; }
    EtsLock& stripe_for(uint32_t hash) { return locks_[hash & (n_ - 1)].lock; }

    void lock() {
        for (unsigned i = 0; i < n_; ++i) locks_[i].lock.lock();
    }
    void unlock() {
        for (unsigned i = n_; i-- > 0;) locks_[i].lock.unlock();
    }
    void lock_shared() {
        for (unsigned i = 0; i < n_; ++i) locks_[i].lock.lock_shared();
    }
    void unlock_shared() {
        for (unsigned i = n_; i-- > 0;) locks_[i].lock.unlock_shared();
    }

private:
    // One cache line each: stripes taken by different cores do not share a line.
    struct alignas(64) Padded {
        EtsLock lock;
    };
    std::unique_ptr<Padded[]> locks_;
    unsigned n_ = 1;
};

}  // namespace beam
