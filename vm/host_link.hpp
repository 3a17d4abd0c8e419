// What the runtime asks of a host program that embeds the VM (the library's face, embed/):
// where host mailboxes' messages go, which functions the host implements, and where the VM's
// output goes. VM::host is null for the beamvm executable, and every caller checks.
#pragma once

#include <string_view>

#include "vm/term.hpp"

namespace beam {

class Process;
struct NifFunction;

class HostLink {
public:
    virtual ~HostLink() = default;
    // beamvm_internal:host_deliver(Queue, Message) from `p`: hands a copy of `message` to the
    // host's queue. False if there is no such queue or `p` is not the process it belongs to.
    virtual bool deliver(Process* p, uint64_t queue, Term message) = 0;
    // The host function Module:Function/Arity, bound like a NIF (nif/nif_module.hpp), or null.
    virtual const NifFunction* host_function(Term module, Term function, unsigned arity) = 0;
    // Output for the VM's standard output (fd 1) or standard error (fd 2): false when the host
    // did not take it, and it goes to the file as without a host.
    virtual bool write_output(int fd, std::string_view text) = 0;
    // The VM's own reports (a process's crash report, "=ERROR REPORT===="), `level` being
    // "error", "warning" or "info": false when the host did not take it (it goes to stderr).
    virtual bool log(std::string_view level, std::string_view text) = 0;
};

}  // namespace beam
