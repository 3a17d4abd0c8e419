// Counters behind OP_COUNT (vm/op_counts.hpp). Each scheduler thread counts into its own
// table; the tables are summed and written when the program exits, to the file named by the
// environment variable BEAMVM_OP_COUNTS (only in profiling builds), one line per count:
//   op NAME BASE COUNT     executions of a specific instruction (BASE: as declared in the table)
//   pair FIRST SECOND COUNT  SECOND executed right after FIRST, placed right after it in the code
#ifdef BEAMVM_OP_COUNTS
#include "vm/op_counts.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include "vm/interp.hpp"

namespace beam {

namespace {

constexpr size_t N = size_t(Op::COUNT);

struct ThreadCounts {
    std::vector<uint64_t> single = std::vector<uint64_t>(N);
    std::vector<uint64_t> pair = std::vector<uint64_t>(N * N);
    size_t prev = N;
    const Word* prev_next = nullptr;
};

std::mutex g_lock;
std::vector<std::unique_ptr<ThreadCounts>>& all_tables() {
    static std::vector<std::unique_ptr<ThreadCounts>> tables;  // never freed: read at exit
    return tables;
}

void write_counts() {
    const char* path = std::getenv("BEAMVM_OP_COUNTS");
    if (!path) return;
    std::vector<uint64_t> single(N), pair(N * N);
    {
        std::lock_guard<std::mutex> g(g_lock);
        for (auto& t : all_tables()) {
            for (size_t i = 0; i < N; ++i) single[i] += t->single[i];
            for (size_t i = 0; i < N * N; ++i) pair[i] += t->pair[i];
        }
    }
    FILE* f = std::fopen(path, "w");
    if (!f) {
        std::fprintf(stderr, "beamvm: cannot write instruction counts to %s\n", path);
        return;
    }
    for (size_t i = 0; i < N; ++i)
        if (single[i]) std::fprintf(f, "op %s %s %llu\n", instr_meta(Op(i)).name, instr_meta(Op(i)).base,
                                    (unsigned long long)single[i]);
    for (size_t i = 0; i < N; ++i)
        for (size_t j = 0; j < N; ++j)
            if (uint64_t c = pair[i * N + j])
                std::fprintf(f, "pair %s %s %llu\n", instr_meta(Op(i)).name, instr_meta(Op(j)).name,
                             (unsigned long long)c);
    std::fclose(f);
}

ThreadCounts* new_table() {
    auto t = std::make_unique<ThreadCounts>();
    ThreadCounts* raw = t.get();
    std::lock_guard<std::mutex> g(g_lock);
    if (all_tables().empty()) {
        std::atexit(write_counts);
        std::at_quick_exit(write_counts);  // the command line's exit (vm/runner.cpp)
    }
    all_tables().push_back(std::move(t));
    return raw;
}

}  // namespace

void op_count(size_t id, const Word* at, size_t size) {
    static thread_local ThreadCounts* t = new_table();
    t->single[id]++;
    if (t->prev < N && at == t->prev_next) t->pair[t->prev * N + id]++;
    t->prev = id;
    t->prev_next = at + size;
}

}  // namespace beam
#endif
