// erlang:trace/3 on ports: a port's trace flags and tracer, the defaults new ports take
// (trace(new_ports, ...)), and the port events: open, closed, getting_linked,
// getting_unlinked (the `ports` flag), the messages a port takes in ('receive') and sends
// (send). Everything here runs with the port's lock held, as the port's own state.
#include <mutex>

#include "scheduler/port_system.hpp"
#include "vm/vm.hpp"

namespace beam {

void port_trace_event(PortSystem& ps, Port* p, uint32_t flag, Term what, std::initializer_list<Term> extra) {
    if (!(p->trace_flags & flag) || !p->tracer) return;
    if (!tracer_alive(ps.vm, *p->tracer)) {  // erl_tracer:enabled/3 says remove
        p->trace_flags = 0;
        p->tracer = nullptr;
        return;
    }
    // A port tracing a port would re-enter the port system under its mutex: not supported.
    if (is_port(p->tracer->destination())) return;
    trace_emit_id(ps.vm, p->id, *p->tracer, p->trace_flags, what, extra);
}

void port_trace_opened(PortSystem& ps, Port* p) {
    VM& vm = ps.vm;
    if (vm.new_port_trace.flags.load(std::memory_order_acquire)) {
        std::lock_guard lock(vm.trace_mutex);
        p->trace_flags = vm.new_port_trace.flags.load(std::memory_order_relaxed);
        p->tracer = vm.new_port_trace.tracer;
    }
    if (!p->trace_flags) return;
    port_trace_event(ps, p, trace_flag::PORTS, atom("open"), {p->owner, atom(p->name)});
    port_trace_event(ps, p, trace_flag::PORTS, atom("getting_linked"), {p->owner});
}

bool port_trace_state(VM& vm, Term port, const std::function<void(uint32_t&, TracerRef&)>& f) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return false;
    f(p->trace_flags, p->tracer);
    return true;
}

void each_port_trace_state(VM& vm, const std::function<void(uint32_t&, TracerRef&)>& f) {
    PortSystem& ps = ports_of(vm);
    for (auto& p : ps.all_ports()) {
        std::lock_guard lock(p->lock);
        if (!p->closed) f(p->trace_flags, p->tracer);
    }
}

}  // namespace beam
