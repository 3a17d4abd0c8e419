// A host program that runs an Erlang worker pool (pool.erl) on two schedulers, hands it jobs
// as messages, gets the answers in a host mailbox, and gives the workers a C++ function to
// call (host:square/1).
#include <beamvm/vm.hpp>

#include <cstdio>
#include <map>

int main(int argc, char** argv) {
    const char* ebin = argc > 1 ? argv[1] : ".";  // where pool.beam is
    beamvm::HostFunction square{"host", "square", 1, [](beamvm::HostCall&, std::span<const beamvm::Value> args) {
                                    int64_t k = args[0].as_int64();
                                    return beamvm::Value::integer(k * k);
                                }};
    beamvm::VM vm({.schedulers = 2, .code_path = {ebin}, .host_functions = {square}});
    auto inbox = vm.open_mailbox();
    vm.call("pool", "start", {4, inbox->pid()});

    const int jobs = 8;
    for (int id = 1; id <= jobs; ++id)
        vm.send(beamvm::atom("pool"), beamvm::tuple({beamvm::atom("job"), id, id * 100}));
    std::map<int64_t, beamvm::Value> answers;
    while (answers.size() < jobs) {
        auto msg = inbox->receive(std::chrono::seconds(10));
        if (!msg) {
            std::fprintf(stderr, "no answer from the pool\n");
            return 1;
        }
        answers.emplace((*msg)[1].as_int64(), *msg);
    }
    for (auto& [id, msg] : answers)
        std::printf("job %lld: worker %lld: %s\n", (long long)id, (long long)msg[2].as_int64(), msg[3].integer_text().c_str());
    vm.send(beamvm::atom("pool"), beamvm::atom("stop"));
    std::printf("pool: %s\n", inbox->receive(std::chrono::seconds(10)).value().to_string().c_str());
    return 0;
}
