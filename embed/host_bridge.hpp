// The embedding library's side of vm/host_link.hpp: the queues through which processes hand
// terms to host threads, the host functions bound as NIFs, and the output hooks. One per
// embedded VM; internal to the library.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "beamvm/vm.hpp"
#include "nif/nif_module.hpp"
#include "vm/host_link.hpp"
#include "vm/vm.hpp"

namespace beamvm {

// Values between the VM and the host, through the external format (beamvm/value.hpp).
Value to_value(beam::VM& vm, beam::Term t);
// Onto `a` (a process heap or a scratch area); throws Error when the VM refuses the term.
beam::Term from_value(beam::VM& vm, beam::TermAllocator& a, const Value& v);

// Messages for one host thread, from the one process allowed to deliver them.
struct HostQueue {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> items;  // external format
    beam::Term owner = beam::NIL;   // the pid that may deliver (set before it runs)
    bool closed = false;
};

class HostBridge final : public beam::HostLink {
public:
    explicit HostBridge(beam::VM& vm) : vm_(vm) {}
    ~HostBridge() override;

    // Host functions are fixed when the VM is made, before anything is loaded.
    void add_functions(const std::vector<HostFunction>& fns);
    void set_output(std::function<void(std::string_view)> out, std::function<void(std::string_view)> err,
                    std::function<void(std::string_view, std::string_view)> log);

    // A new queue and its number (the small integer its process is given).
    std::pair<uint64_t, std::shared_ptr<HostQueue>> open_queue();
    void set_owner(uint64_t id, beam::Term pid);
    void close_queue(uint64_t id);
    void close_all();

    // Waits for the next item of `q`, giving up when the VM halts, when the queue's process
    // is gone with nothing left to take, or at `deadline`. Throws Error for the first two.
    std::optional<Value> take(HostQueue& q, std::chrono::steady_clock::time_point deadline);

    bool deliver(beam::Process* p, uint64_t queue, beam::Term message) override;
    const beam::NifFunction* host_function(beam::Term module, beam::Term function, unsigned arity) override;
    bool write_output(int fd, std::string_view text) override;
    bool log(std::string_view level, std::string_view text) override;

private:
    struct Bound {
        HostFunction spec;
        std::unique_ptr<beam::NifModule> owner;  // priv_data: this Bound
        std::unique_ptr<beam::NifFunction> fn;
    };
    beam::VM& vm_;
    std::mutex mutex_;
    uint64_t next_queue_ = 1;
    std::unordered_map<uint64_t, std::shared_ptr<HostQueue>> queues_;
    std::map<std::tuple<uint64_t, uint64_t, unsigned>, std::unique_ptr<Bound>> functions_;  // by atom words
    std::function<void(std::string_view)> out_, err_;
    std::function<void(std::string_view, std::string_view)> log_;
};

}  // namespace beamvm
