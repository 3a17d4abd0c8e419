// erlang:system_flag/2 (erts' bif.c) for the flags a node without distribution accepts.
//
// Each answers the previous value, with erl's checks. What beamvm has takes effect:
// backtrace_depth (vm/exception.cpp) and the heap options of new processes (min_heap_size,
// min_bin_vheap_size, fullsweep_after, max_heap_size: spawn reads vm/system_flags.hpp) and
// schedulers_online (scheduler/scheduler.hpp).
// scheduler_wall_time switches the measurement on or off for the caller
// (scheduler/wall_time.hpp). Flags with nothing to act on in beamvm yet (microstate_accounting,
// trace_control_word, outstanding_system_requests_limit, system_logger, scheduling_statistics)
// are kept and answered as erl does; erts_alloc answers notsup, as erl does for every
// parameter of a default node. What beamvm cannot do says so:
// blocking multi-scheduling, a sequential tracer, binding schedulers and CPU topologies raise
// {not_implemented, ...}. An unknown flag is badarg with `cause => badopt` in its error_info,
// as erl's.
#include <cstdio>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_flags.hpp"
#include "bifs/system_heap_options.hpp"
#include "dist/dist_system.hpp"
#include "vm/map.hpp"
#include "vm/system_flags.hpp"
#include "vm/vm.hpp"

namespace beam {

bool set_scheduler_wall_time(Process* p, bool on) {
    Schedulers* s = p->vm->scheds.get();
    return s && s->set_wall_time(p->pid, on);
}

namespace {

constexpr uint64_t MAX_PROCESSES = (uint64_t(1) << 27) - 1;  // erts' ERTS_MAX_PROCESSES
constexpr int64_t MAX_FULLSWEEP_AFTER = 65535;               // erts keeps 16 bits

Term not_implemented(Process* p, const char* what) {
    std::fprintf(stderr, "beamvm: erlang:system_flag(%s, _) is not implemented\n", what);
    return p->error(make_tuple(*p, {atom("not_implemented"), atom(what)}));
}

bool non_neg_small(Term t, int64_t* out) {
    if (!is_small(t) || small_value(t) < 0) return false;
    *out = small_value(t);
    return true;
}

int64_t scheduler_count(Process* p) { return p->vm->scheds ? int64_t(p->vm->scheds->count()) : 1; }

// schedulers_online: 1..configured; the schedulers above it stop taking work
// (scheduler/scheduler.hpp). The old number is answered at once: OTP waits until the
// schedulers going offline have stopped, beamvm lets them finish their current time slice.
Term schedulers_online(Process* p, Term v) {
    int64_t n = scheduler_count(p);
    if (!is_small(v) || small_value(v) < 1 || small_value(v) > n) return p->badarg();
    if (!p->vm->scheds) return make_small(1);
    return make_small(p->vm->scheds->set_reported_online(int(small_value(v))));
}

// dirty_cpu_schedulers_online: at most that many dirty CPU threads run NIF steps at once.
Term dirty_schedulers_online(Process* p, Term v) {
    Schedulers* s = p->vm->scheds.get();
    int64_t n = s ? s->dirty().cpu_count() : scheduler_count(p);
    if (!is_small(v) || small_value(v) < 1 || small_value(v) > n) return p->badarg();
    if (!s) return make_small(n);
    return make_small(s->dirty().set_cpu_online(int(small_value(v))));
}

Term exchange_bool(Process* p, std::atomic<bool>& flag, Term v) {
    if (!is_boolean_atom(v)) return p->badarg();
    return make_bool(flag.exchange(v == am::true_));
}

Term system_flag_2(Process* p, const Term* a) {
    Term flag = a[0], v = a[1];
    SystemFlags& f = system_flags(*p->vm);
    int64_t n;
    if (flag == atom("backtrace_depth")) {
        if (!non_neg_small(v, &n)) return p->badarg();
        uint32_t depth = uint32_t(std::min<int64_t>(n, SystemFlags::MAX_BACKTRACE_DEPTH));
        return make_small(f.backtrace_depth.exchange(depth));
    }
    if (flag == atom("fullsweep_after")) {
        if (!non_neg_small(v, &n)) return p->badarg();
        return make_small(f.fullsweep_after.exchange(uint32_t(std::min(n, MAX_FULLSWEEP_AFTER))));
    }
    if (flag == atom("min_heap_size") || flag == atom("min_bin_vheap_size")) {
        std::atomic<size_t>& field = flag == atom("min_heap_size") ? f.min_heap_size : f.min_bin_vheap_size;
        size_t words;
        if (!non_neg_small(v, &n)) return p->badarg();
        // erts rounds up to its heap size series from its first size, 12 words; beamvm's
        // rounding for processes starts at the default, 233.
        if (n <= int64_t(gc::DEFAULT_MIN_HEAP)) {
            words = 0;
            for (size_t step : {12, 38, 51, 90, 142, 233})
                if (!words && size_t(n) <= step) words = step;
        } else if (!parse_heap_option(v, 0, &words)) {
            return p->badarg();
        }
        return make_small(SWord(field.exchange(words)));
    }
    if (flag == atom("max_heap_size")) {
        MaxHeapSize m, current = f.max_heap_size();
        if (!parse_max_heap_size(v, &m) || !max_heap_fits(m, f.min_heap_size.load())) return p->badarg();
        // What the new value leaves out (a bare size, a map without kill or error_logger)
        // keeps its current setting, as erts' erts_max_heap_size does for the system value.
        if (!is_map(v) || !map_get(v, am::kill)) m.kill = current.kill;
        if (!is_map(v) || !map_get(v, atom("error_logger"))) m.error_logger = current.error_logger;
        return max_heap_size_term(p, f.exchange_max_heap_size(m));
    }
    if (flag == atom("scheduler_wall_time")) {
        if (!is_boolean_atom(v)) return p->badarg();
        return make_bool(set_scheduler_wall_time(p, v == am::true_));
    }
    if (flag == atom("microstate_accounting")) {
        if (v == atom("reset")) return make_bool(f.microstate_accounting.load());
        return exchange_bool(p, f.microstate_accounting, v);
    }
    if (flag == atom("schedulers_online")) return schedulers_online(p, v);
    if (flag == atom("dirty_cpu_schedulers_online")) return dirty_schedulers_online(p, v);
    if (flag == atom("multi_scheduling")) {
        // The normal kinds block the normal schedulers only: in beamvm the same thing (dirty
        // steps run on regardless), counted apart as erts counts them.
        Schedulers* s = p->vm->scheds.get();
        auto name = [](Schedulers::MultiState st) {
            return st == Schedulers::MultiState::Blocked         ? atom("blocked")
                   : st == Schedulers::MultiState::BlockedNormal ? atom("blocked_normal")
                                                                 : atom("enabled");
        };
        bool normal = v == atom("block_normal") || v == atom("unblock_normal");
        if (v == atom("block") || v == atom("block_normal"))
            return s ? name(s->block_multi_scheduling(p->pid, normal)) : atom("blocked");
        if (v == atom("unblock") || v == atom("unblock_normal"))
            return s ? name(s->unblock_multi_scheduling(p->pid, normal)) : atom("enabled");
        return p->badarg();
    }
    if (flag == atom("time_offset") && v == atom("finalize")) {
        // beamvm's time offset never changes (no time warp): it is final from the start.
        return atom("final");
    }
    if (flag == atom("outstanding_system_requests_limit")) {
        if (!is_small(v) || small_value(v) < 1 || uint64_t(small_value(v)) > MAX_PROCESSES) return p->badarg();
        uint64_t old = f.outstanding_system_requests_limit.exchange(uint64_t(small_value(v)));
        // erts starts at two requests per scheduler.
        return make_small(SWord(old ? old : uint64_t(2 * scheduler_count(p))));
    }
    if (flag == atom("scheduling_statistics")) {
        if (v == atom("disable") || v == atom("enable") || v == atom("clear")) return am::true_;
        return p->badarg();
    }
    if (flag == atom("debug_flags")) return am::true_;
    if (flag == atom("trace_control_word")) {
        if (!is_small(v) || small_value(v) < 0 || small_value(v) > int64_t(UINT32_MAX)) return p->badarg();
        return make_small(f.trace_control_word.exchange(uint32_t(small_value(v))));
    }
    if (flag == atom("sequential_tracer")) {
        Term old = seq_set_system_tracer(p, v);
        return is_value(old) ? old : p->badarg();
    }
    if (flag == atom("reset_seq_trace")) {
        seq_reset_all(*p->vm);
        return am::true_;
    }
    if (flag == atom("system_logger")) {
        if (v != atom("logger") && v != am::undefined && !is_local_pid(v)) return p->badarg();
        Word old = f.system_logger.exchange(v.raw);
        return old ? Term{old} : atom("logger");
    }
    if (flag == atom("erts_alloc")) {
        // {Allocator, Parameter, Integer} naming one of erts' allocators: erl answers notsup
        // for every parameter on a default node, and beamvm has none of them to tune.
        static const char* allocators[] = {"sys_alloc", "temp_alloc", "sl_alloc", "std_alloc", "ll_alloc",
                                           "eheap_alloc", "ets_alloc", "fix_alloc", "literal_alloc",
                                           "binary_alloc", "driver_alloc", "test_alloc"};
        if (!is_tuple(v) || tuple_arity(v) != 3 || !is_atom(tuple_elem(v, 0)) || !is_atom(tuple_elem(v, 1)) ||
            !is_integer(tuple_elem(v, 2)))
            return p->badarg();
        for (const char* name : allocators)
            if (tuple_elem(v, 0) == atom(name)) return atom("notsup");
        return p->badarg();
    }
    if (flag == atom("scheduler_bind_type")) {
        static const char* types[] = {"default_bind", "spread", "processor_spread", "thread_spread",
                                      "thread_no_node_processor_spread", "no_node_processor_spread",
                                      "no_node_thread_spread", "no_spread", "unbound"};
        for (const char* name : types)
            if (v == atom(name)) return not_implemented(p, "scheduler_bind_type");
        return p->badarg();
    }
    if (flag == atom("cpu_topology") || flag == atom("internal_cpu_topology")) {
        // A topology is `undefined` or a list (whose elements erl checks further).
        if (v == am::undefined || is_list(v)) return not_implemented(p, std::string(atom_name(flag)).c_str());
        if (flag == atom("internal_cpu_topology")) return p->badarg();
        // erts hands cpu_topology to erlang:set_cpu_topology/1, which is what fails in erl.
        p->error(am::badarg);
        Term info = map_from_pairs(*p, {{am::module, am::erl_erts_errors}});
        Term item = make_tuple(*p, {am::error_info, info});
        p->ftop = make_tuple(*p, {am::erlang, atom("set_cpu_topology"), make_list_from(*p, &v, 1),
                                  make_list_from(*p, &item, 1)});
        return NON_VALUE;
    }
    return badarg_with_cause(p, "system_flag", a, 2, atom("badopt"));
}

}  // namespace

Term system_flag_info(Process* p, Term item) {
    SystemFlags& f = system_flags(*p->vm);
    auto tagged = [&](Term v) { return make_tuple(*p, {item, v}); };
    if (item == atom("min_heap_size")) return tagged(make_small(SWord(f.min_heap_size.load())));
    if (item == atom("min_bin_vheap_size")) return tagged(make_small(SWord(f.min_bin_vheap_size.load())));
    if (item == atom("fullsweep_after")) return tagged(make_small(f.fullsweep_after.load()));
    if (item == atom("max_heap_size")) return max_heap_size_term(p, f.max_heap_size());
    if (item == atom("outstanding_system_requests_limit")) {
        uint64_t n = f.outstanding_system_requests_limit.load();
        return make_small(SWord(n ? n : uint64_t(2 * scheduler_count(p))));
    }
    if (item == atom("trace_control_word")) return make_small(f.trace_control_word.load());
    if (item == atom("sequential_tracer")) return tagged(seq_system_tracer(p));
    if (item == atom("dist_ctrl")) {
        Term list = NIL;
        for (auto& [node, carrier] : dist::dist_of(*p->vm).carriers())
            list = cons_at(p->alloc(2), make_tuple(*p, {node, carrier}), list);
        return list;
    }
    if (item == atom("scheduler_bind_type")) return atom(p->vm->emu_options.scheduler_bind_type);  // +sbt
    if (item == atom("system_logger")) {
        Word w = f.system_logger.load();
        return w ? Term{w} : atom("logger");
    }
    return NON_VALUE;
}

namespace {

constexpr BifSpec table[] = {
    {"erlang", "system_flag", 2, &system_flag_2},
};

}  // namespace

std::span<const BifSpec> system_flag_bifs() { return table; }

}  // namespace beam
