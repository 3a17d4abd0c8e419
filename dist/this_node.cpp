// This node's own life as a distributed node, as erts has it: erlang:setnode/2 makes it
// alive, which monitor_nodes subscribers hear as {nodeup, ThisNode, ...}; when net_kernel
// exits (net_kernel:stop/0, or a dynamically named node losing the connection that named it,
// after which net_kernel restarts), every connection is taken down (pending ones aborted,
// carrier ports exited with net_kernel_terminated, carrier processes killed), and once the
// last one is gone the node is nonode@nohost again and subscribers get {nodedown, ThisNode,
// ...} with the reason net_kernel_terminated (no_network when that was net_kernel's reason).
#include "bifs/bif_util.hpp"
#include "dist/dist_system.hpp"
#include "dist/proc_channel.hpp"
#include "scheduler/native_monitors.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

namespace {
class NetKernelWatch final : public ExitWatcher {
public:
    explicit NetKernelWatch(DistSystem& d) : dist_(d) {}
    void on_exit(Term, uint64_t) override { dist_.net_kernel_exited(native_exit_reason()); }

private:
    DistSystem& dist_;
};
}  // namespace

void DistSystem::this_node_alive(Term name, uint32_t creation, Term net_kernel) {
    vm.node.set(name, creation);
    net_kernel_gone_.store(false);
    node_event(name, false, ~uint32_t(0), true, NIL);
    if (native_monitor(vm, net_kernel, std::make_shared<NetKernelWatch>(*this)) == 0)
        net_kernel_exited(atom("noproc"));
}

void DistSystem::net_kernel_exited(Term reason) {
    Term nd_reason = reason == atom("no_network") ? reason : atom("net_kernel_terminated");
    nodedown_reason_.store(nd_reason.raw);  // an atom: safe to keep
    net_kernel_gone_.store(true);
    for (auto& e : all_entries()) {
        ConnState state;
        uint32_t conn_id;
        Term port = NON_VALUE, controller = NON_VALUE;
        {
            std::lock_guard lock(e->mu);
            state = e->state;
            conn_id = e->conn_id;
            if (e->port) port = e->port->id;
            if (e->proc) controller = e->proc->controller;
        }
        if (state == ConnState::Pending) {
            connection_lost(*e, conn_id, nd_reason);
        } else if (state == ConnState::Up) {
            // The carrier's end ends the connection (Carrier::port_closed, ProcChannel::on_exit).
            if (is_value(port)) port_exit_signal(vm, port, port, nd_reason, false);
            else if (is_value(controller)) send_exit_signal(vm, controller, controller, am::kill, false);
        }
    }
    not_alive_when_unconnected();
}

void DistSystem::not_alive_when_unconnected() {
    if (!net_kernel_gone_.load()) return;
    for (auto& e : all_entries()) {
        std::lock_guard lock(e->mu);
        if (e->state != ConnState::Idle) return;
    }
    if (!net_kernel_gone_.exchange(false)) return;  // another thread got here first
    Term self = vm.node.name();
    vm.node.set(am::nonode_at_nohost, 0);
    node_event(self, false, ~uint32_t(0), false, Term{nodedown_reason_.load()});
}

}  // namespace beam::dist
