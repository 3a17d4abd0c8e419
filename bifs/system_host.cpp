// beamvm_internal:host_deliver/2: how the processes of a VM embedded in a host program hand
// terms to it (vm/erlang/beamvm_host.erl; the host side is embed/host_bridge.cpp).
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/host_link.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// host_deliver(Queue, Message): Queue is the small integer the host gave the calling process.
// badarg without a host, for another process's queue, or for a queue the host closed.
Term host_deliver_2(Process* p, const Term* a) {
    if (!p->vm->host || !is_small(a[0]) || small_value(a[0]) <= 0) return p->badarg();
    if (!p->vm->host->deliver(p, uint64_t(small_value(a[0])), a[1])) return p->badarg();
    return am::ok;
}

const BifSpec table[] = {
    {"beamvm_internal", "host_deliver", 2, &host_deliver_2},
};

}  // namespace

std::span<const BifSpec> host_bifs() { return table; }

}  // namespace beam
