// ETS table locks (ets/ets_lock.hpp) with reader groups: a writer waits for every reader,
// whichever group it counts in and however late that group was first used.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "ets/ets_lock.hpp"

using namespace beam;

TEST_CASE("ets lock: a writer waits for a reader in a group marked after the lock was made", "[ets]") {
    EtsLock lock;
    lock.use_reader_groups();
    // Readers on this thread first: their group is marked before the other reader's.
    lock.lock_shared();
    lock.unlock_shared();

    std::atomic<bool> holding{false}, released{false};
    std::thread reader([&] {
        lock.lock_shared();
        holding = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        released = true;
        lock.unlock_shared();
    });
    while (!holding) std::this_thread::yield();
    lock.lock();
    CHECK(released);
    lock.unlock();
    reader.join();
}

TEST_CASE("ets lock: readers in groups never see a writer's half-done update", "[ets]") {
    EtsLock lock;
    lock.use_reader_groups();
    uint64_t a = 0, b = 0;  // plain words: only the lock orders them
    constexpr int WRITERS = 3, READERS = 6, WRITES = 20000, READS = 40000;
    std::atomic<int> torn{0}, writes_done{0};
    std::vector<std::thread> threads;
    for (int w = 0; w < WRITERS; ++w)
        threads.emplace_back([&] {
            for (int i = 0; i < WRITES; ++i) {
                lock.lock();
                a = a + 1;
                b = a;
                lock.unlock();
                writes_done.fetch_add(1, std::memory_order_relaxed);
            }
        });
    for (int r = 0; r < READERS; ++r)
        threads.emplace_back([&, r] {
            // Half the readers first read once the writers are under way, so their groups are
            // marked while writers hold and drain the lock.
            if (r % 2) while (writes_done.load(std::memory_order_relaxed) < WRITES / 2) std::this_thread::yield();
            for (int i = 0; i < READS; ++i) {
                lock.lock_shared();
                if (a != b) torn.fetch_add(1, std::memory_order_relaxed);
                lock.unlock_shared();
            }
        });
    for (auto& t : threads) t.join();
    CHECK(torn.load() == 0);
    CHECK(a == uint64_t(WRITERS) * WRITES);
    CHECK(b == a);
}
