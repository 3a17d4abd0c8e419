// Deferred freeing (scheduler/quiescence.hpp): a retired process is freed only once every
// online participant has reported a quiescent state since, and an offline one holds nothing up.
#include <catch2/catch.hpp>

#include <thread>

#include "scheduler/quiescence.hpp"
#include "vm/process.hpp"

using namespace beam;

namespace {
Process* make_process(uint64_t n) { return new Process(nullptr, nullptr, make_local_pid(n), 0); }
}  // namespace

TEST_CASE("quiescence: with no participant online a retired process is freed at once", "[quiescence]") {
    Quiescence q;
    q.prepare(2);
    q.retire(make_process(1));
    CHECK(q.pending() == 0);
}

TEST_CASE("quiescence: an online participant holds a retired process until it is quiescent", "[quiescence]") {
    Quiescence q;
    q.prepare(2);
    q.online(0);
    q.online(1);
    q.retire(make_process(1));
    CHECK(q.pending() == 1);
    q.quiescent(0);
    CHECK(q.pending() == 1);  // participant 1 may still hold it
    q.quiescent(1);
    CHECK(q.pending() == 0);
    // One retired after a participant's last report waits for its next one.
    q.retire(make_process(2));
    q.quiescent(1);
    CHECK(q.pending() == 1);
    q.offline(0);  // asleep: holds nothing
    q.quiescent(1);
    CHECK(q.pending() == 0);
    q.offline(1);
}

TEST_CASE("quiescence: membership is per thread and per domain", "[quiescence]") {
    Quiescence q, other;
    q.prepare(1);
    other.prepare(1);
    CHECK_FALSE(q.is_member());
    {
        Quiescence::Member m(q, 0);
        CHECK(q.is_member());
        CHECK_FALSE(other.is_member());
        bool elsewhere = true;
        std::thread([&] { elsewhere = q.is_member(); }).join();
        CHECK_FALSE(elsewhere);
        q.retire(make_process(3));
        CHECK(q.pending() == 1);  // this thread is online and has not been quiescent since
        q.quiescent(0);
        CHECK(q.pending() == 0);
    }
    CHECK_FALSE(q.is_member());
}
