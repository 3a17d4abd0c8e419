// What the embedding API costs (bench/embed_call.sh): a VM's start-up, VM::call of a BIF
// (a process pair per call, the arguments and result in the external format), and a message
// from the host to its own mailbox and back out. There is no erl counterpart to compare with:
// erl cannot be embedded.
#include <beamvm/vm.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    using clk = std::chrono::steady_clock;
    const int n = argc > 1 ? std::atoi(argv[1]) : 20000;
    auto us = [](clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); };
    auto t0 = clk::now();
    beamvm::VM vm({.schedulers = 2});
    auto t1 = clk::now();
    vm.call("lists", "reverse", {beamvm::list({1, 2, 3})});  // loads lists first
    auto t2 = clk::now();
    for (int i = 0; i < n; ++i) vm.call("erlang", "abs", {-i});
    auto t3 = clk::now();
    auto inbox = vm.open_mailbox();
    auto t4 = clk::now();
    for (int i = 0; i < n; ++i) {
        vm.send(inbox->pid(), i);
        inbox->receive();
    }
    auto t5 = clk::now();
    std::printf("start-up %.1f ms; call %.1f us; send and receive %.1f us (%d each)\n", us(t0, t1) / 1000,
                us(t2, t3) / n, us(t4, t5) / n, n);
}
