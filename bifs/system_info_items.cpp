// erlang:system_info/1 items beyond the core ones in bifs/system.cpp (OTP: erl_bif_info.c):
// the emulator's build, schedulers, clocks, allocators and internal tables. Each answers with
// OTP's type and shape; values describe beamvm: its schedulers (normal, dirty CPU and dirty
// I/O: scheduler/dirty_schedulers.hpp), malloc for every allocator, no ports,
// ETS tables, NIF libraries, tracing or distribution yet.
#include <gnu/libc-version.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/nif_call.hpp"
#include "bifs/system_heap_options.hpp"
#include "ets/ets_registry.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/signals.hpp"
#include "scheduler/timers.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/gc_options.hpp"
#include "vm/system_flags.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam {


namespace {

int scheduler_count(Process* p) { return p->vm->scheds ? p->vm->scheds->count() : 1; }

Term pair(Process* p, const char* key, Term v) { return make_tuple(*p, {atom(key), v}); }

Term list(Process* p, std::initializer_list<Term> items) { return make_list_from(*p, items.begin(), items.size()); }

// reader_groups_map and decentralized_counter_groups_map, as erts: one entry per logical
// processor, {ProcessorId, Group}, the groups (at most one per scheduler) dealt out in turn.
// erl +S 4:4 on two processors: [{0,1},{1,2}].
Term groups_map(Process* p) {
    int cpus = int(std::max(1u, std::thread::hardware_concurrency()));
    int groups = std::min(cpus, scheduler_count(p));
    std::vector<Term> items;
    for (int i = 0; i < cpus; ++i) items.push_back(make_tuple(*p, {make_small(i), make_small(i % groups + 1)}));
    return make_list_from(*p, items.data(), items.size());
}

Term scheduling_statistics(Process* p) {
    const char* kinds[] = {"process_max", "process_high", "process_normal", "process_low", "port"};
    std::vector<Term> items;
    for (const char* k : kinds) items.push_back(make_tuple(*p, {atom(k), make_small(0), make_small(0)}));
    return make_list_from(*p, items.data(), items.size());
}

int64_t clock_ns(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Term time_source(Process* p, bool monotonic) {
    std::vector<Term> items = {pair(p, "function", atom("clock_gettime")),
                               pair(p, "clock_id", atom(monotonic ? "CLOCK_MONOTONIC" : "CLOCK_REALTIME")),
                               pair(p, "resolution", make_small(1000000000))};
    if (monotonic) items.push_back(pair(p, "extended", atom("no")));
    items.push_back(pair(p, "parallel", atom("yes")));
    items.push_back(pair(p, "time", make_integer(*p, clock_ns(monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME))));
    return make_list_from(*p, items.data(), items.size());
}

Term c_compiler(Process* p) {
#if defined(__clang__)
    return make_tuple(*p, {atom("clang"), make_tuple(*p, {make_small(__clang_major__), make_small(__clang_minor__),
                                                          make_small(__clang_patchlevel__)})});
#elif defined(__GNUC__)
    return make_tuple(*p, {atom("gnuc"), make_tuple(*p, {make_small(__GNUC__), make_small(__GNUC_MINOR__),
                                                         make_small(__GNUC_PATCHLEVEL__)})});
#else
    return make_tuple(*p, {am::undefined, am::undefined});
#endif
}

const char* architecture() {
#if defined(__x86_64__)
    return "x86_64-pc-linux-gnu";
#elif defined(__aarch64__)
    return "aarch64-unknown-linux-gnu";
#else
    return "unknown-unknown-linux-gnu";
#endif
}

// {glibc, [Major, Minor], Features, Settings}: beamvm allocates with malloc, and has none of
// erts' own allocators to list.
Term allocator(Process* p) {
    std::string v = gnu_get_libc_version();
    int major = std::atoi(v.c_str()), minor = 0;
    if (auto dot = v.find('.'); dot != std::string::npos) minor = std::atoi(v.c_str() + dot + 1);
    return make_tuple(*p, {atom("glibc"), list(p, {make_small(major), make_small(minor)}), NIL, NIL});
}

// The first monotonic time and the last before beamvm's nanosecond clock would overflow.
constexpr int64_t START_TIME = -int64_t(576460752303423488LL);
constexpr int64_t END_TIME = std::numeric_limits<int64_t>::max() + START_TIME;

// Crash-dump style text sections (erts writes the same text into erl_crash.dump).
Term loaded_text(Process* p) {
    std::string s = "Current code: " + std::to_string(p->ns->loaded_modules().size()) + "\nOld code: 0\n";
    return make_binary(*p, s);
}

Term procs_text(Process* p) {
    std::string s;
    for (Term pid : p->vm->procs.pids()) s += "=proc:" + display_string(pid) + "\n";
    return make_binary(*p, s);
}

// Every native function beamvm has, as {M, F, A}: erlang:is_builtin/3 answers true for
// exactly these (and apply/2,3, yield/0), as erts' snifs list goes with its is_builtin.
Term natives_list(Process* p) {
    std::vector<Term> items;
    std::set<std::tuple<std::string_view, std::string_view, unsigned>> seen;
    for (const BifSpec* b : all_bifs())
        if (find_bif_in(*p->vm, atom(b->module), atom(b->name), b->arity) == b &&
            seen.emplace(b->module, b->name, b->arity).second)
            items.push_back(make_tuple(*p, {atom(b->module), atom(b->name), make_small(b->arity)}));
    return make_list_from(*p, items.data(), items.size());
}

// erts' allocator names: beamvm has none of them enabled (it uses malloc), which OTP
// reports as false.
bool is_erts_allocator(Term a) {
    static const char* names[] = {"sys_alloc", "temp_alloc", "sl_alloc", "std_alloc", "ll_alloc",
                                  "eheap_alloc", "ets_alloc", "fix_alloc", "literal_alloc", "binary_alloc",
                                  "driver_alloc", "mseg_alloc", "sys_aligned_alloc", "test_alloc", "exec_alloc"};
    for (const char* n : names)
        if (a == atom(n)) return true;
    return false;
}

Term tuple_item(Process* p, Term key, Term arg) {
    if (key == atom("wordsize") && (arg == atom("internal") || arg == atom("external"))) return make_small(8);
    if (key == atom("cpu_topology") && (arg == atom("defined") || arg == atom("detected") || arg == atom("used")))
        return am::undefined;
    if ((key == atom("allocator") || key == atom("allocator_sizes")) && is_erts_allocator(arg)) return am::false_;
    // A list of allocators (erts_debug:alloc_blocks_size/1 asks for alloc_util_allocators,
    // which beamvm has none of): each is {Name, false}, as a single one is.
    if (key == atom("allocator_sizes") && (is_list(arg) || is_nil(arg))) {
        std::vector<Term> names, out;
        if (!list_elements(arg, names)) return NON_VALUE;
        for (Term n : names) {
            if (!is_erts_allocator(n)) return NON_VALUE;
            out.push_back(make_tuple(*p, {n, am::false_}));
        }
        return make_list_from(*p, out.data(), out.size());
    }
    return NON_VALUE;
}

}  // namespace

// {memory_internal, Ref, Allocators}: erts answers with one message per auxiliary-work thread,
// {Ref, Instance, [{Allocator, Instance, Info}]}. beamvm keeps figures for one fixed-size kind
// only, the BIF timers (send_after, start_timer), which it reports under fix_alloc's fix_types
// as {bif_timer, Allocated, Used} bytes in the first message; the other messages carry none.
// timer_bif_SUITE measures timers this way. Other allocators are reported as absent (false).
static Term memory_internal(Process* p, Term ref, Term allocators) {
    std::vector<Term> wanted;
    if (!list_elements(allocators, wanted)) return NON_VALUE;
    int replies = (p->vm->scheds ? p->vm->scheds->count() : 1);  // erts_internal:no_aux_work_threads() - 1
    size_t used = p->vm->timers.message_timer_count() * TimerService::message_timer_bytes();
    for (int i = 0; i < replies; ++i) {
        std::vector<Term> infos;
        for (Term a : wanted) {
            if (a != atom("fix_alloc")) {
                infos.push_back(make_tuple(*p, {a, am::false_}));
                continue;
            }
            Term types = NIL;
            if (i == 0) {
                Term t = make_tuple(*p, {atom("bif_timer"), make_small(SWord(used)), make_small(SWord(used))});
                types = make_list_from(*p, &t, 1);
            }
            Term fix_types = make_tuple(*p, {atom("fix_types"), types});
            infos.push_back(make_tuple(*p, {a, make_small(i), make_list_from(*p, &fix_types, 1)}));
        }
        Term msg = make_tuple(*p, {ref, make_small(i), make_list_from(*p, infos.data(), infos.size())});
        post_message(*p->vm, p->pid, msg);
    }
    return am::true_;
}

// NON_VALUE when `what` is not one of these items.
Term system_info_item(Process* p, Term what) {
    if (is_tuple(what) && tuple_arity(what) == 3 && tuple_elem(what, 0) == atom("memory_internal") &&
        is_ref(tuple_elem(what, 1)))
        return memory_internal(p, tuple_elem(what, 1), tuple_elem(what, 2));
    if (is_tuple(what) && tuple_arity(what) == 2) return tuple_item(p, tuple_elem(what, 0), tuple_elem(what, 1));
    int n = scheduler_count(p);
    std::string_view w = is_atom(what) ? atom_name(what) : std::string_view{};
    if (w.empty()) return NON_VALUE;
    Schedulers* scheds = p->vm->scheds.get();
    int dirty_cpu = scheds ? scheds->dirty().cpu_count() : n;
    int dirty_io = scheds ? scheds->dirty().io_count() : 10;
    if (w == "dirty_cpu_schedulers") return make_small(dirty_cpu);
    if (w == "dirty_cpu_schedulers_online") return make_small(scheds ? scheds->dirty().cpu_online() : n);
    if (w == "dirty_io_schedulers") return make_small(dirty_io);
    if (w == "schedulers_total" || w == "schedulers_active" || w == "run_queues") return make_small(n);
    if (w == "schedulers_state") return make_tuple(*p, {make_small(n), make_small(n), make_small(n)});
    if (w == "all_schedulers_state") {
        Term s = make_small(n);
        Term c = make_small(dirty_cpu), c_on = make_small(scheds ? scheds->dirty().cpu_online() : n);
        Term io = make_small(dirty_io);
        return list(p, {make_tuple(*p, {atom("normal"), s, s, s}), make_tuple(*p, {atom("dirty_cpu"), c, c_on, c_on}),
                        make_tuple(*p, {atom("dirty_io"), io, io, io})});
    }
    if (w == "scheduler_bindings") {
        std::vector<Term> u(size_t(n), atom("unbound"));
        return make_tuple_from(*p, u.data(), u.size());
    }
    if (w == "multi_scheduling") {
        auto st = p->vm->scheds ? p->vm->scheds->multi_scheduling_state() : Schedulers::MultiState::Enabled;
        return st == Schedulers::MultiState::Blocked         ? atom("blocked")
               : st == Schedulers::MultiState::BlockedNormal ? atom("blocked_normal")
                                                             : atom("enabled");
    }
    if (w == "multi_scheduling_blockers" || w == "normal_multi_scheduling_blockers") {
        if (!p->vm->scheds) return NIL;
        std::vector<Term> b = p->vm->scheds->multi_scheduling_blockers(w == "normal_multi_scheduling_blockers");
        return make_list_from(*p, b.data(), b.size());
    }
    if (w == "scheduling_statistics" || w == "total_scheduling_statistics") return scheduling_statistics(p);
    if (w == "reader_groups_map" || w == "decentralized_counter_groups_map") return groups_map(p);
    if (w == "context_reductions") return make_small(4000);
    if (w == "cpu_topology") return am::undefined;  // not detected
    if (w == "cpu_quota") return atom("unknown");
    if (w == "update_cpu_info") return atom("unchanged");
    if (w == "ethread_used_tse") return make_small(n + 2);  // schedulers, timer thread, main
    if (w == "ethread_info") return NIL;
    if (w == "thread_progress") return am::true_;

    if (w == "beam_jump_table" || w == "constant_pool_support" || w == "eager_check_io" ||
        w == "port_tasks")
        return am::true_;
    if (w == "break_ignored" || w == "io_thread" || w == "lock_checking" || w == "lock_counting" ||
        w == "dynamic_trace_probes")
        return am::false_;
    const EmulatorOptions& emu = p->vm->emu_options;  // erl's emulator flags (tools/emu_flags.cpp)
    if (w == "time_correction") return make_bool(emu.time_correction);
    if (w == "port_parallelism") return make_bool(emu.port_parallelism);
    if (w == "ets_always_compress") return make_bool(emu.ets_always_compress);
    if (w == "ets_realloc_moves") return make_bool(emu.ets_realloc_moves);
    if (w == "compat_rel") return make_small(emu.compat_rel);
    if (w == "time_warp_mode") return atom(emu.time_warp_mode);
    if (w == "scheduler_bind_type") return atom(emu.scheduler_bind_type);
    if (w == "dynamic_trace") return atom("none");
    if (w == "modified_timing_level")
        return emu.modified_timing_level < 0 ? am::undefined : make_small(emu.modified_timing_level);
    if (w == "heap_type") return atom("private");
    if (w == "literal_test") return atom("range");
    if (w == "time_offset") return atom("final");
    if (w == "tolerant_timeofday") return atom("enabled");
    if (w == "start_time") return make_integer(*p, START_TIME);
    if (w == "end_time") return make_integer(*p, END_TIME);
    if (w == "os_monotonic_time_source") return time_source(p, true);
    if (w == "os_system_time_source") return time_source(p, false);

    if (w == "driver_version") return make_string(*p, "3.3");
    if (w == "nif_version") return make_string(*p, "2.16");
    if (w == "system_architecture") return make_string(*p, architecture());
    if (w == "c_compiler_used") return c_compiler(p);
    if (w == "compile_info")
        return list(p, {pair(p, "ldflags", NIL), pair(p, "cflags", NIL), pair(p, "config_h", NIL)});
    if (w == "emu_args") {
        std::vector<Term> items;
        for (const std::string& s : p->vm->emu_args) items.push_back(make_string(*p, s));
        return make_list_from(*p, items.data(), items.size());
    }
    if (w == "taints") {
        std::vector<Term> t = nif_taints();
        return make_list_from(*p, t.data(), t.size());
    }
    if (w == "snifs") return natives_list(p);

    if (w == "allocator") return allocator(p);
    if (w == "alloc_util_allocators") return NIL;
    if (w == "allocated_areas") return list(p, {make_tuple(*p, {atom("sys_misc"), make_small(0)})});
    if (w == "heap_sizes") {
        const auto& st = gc::heap_size_series();
        std::vector<Term> items;
        for (size_t s : st) items.push_back(make_integer(*p, int64_t(s)));
        return make_list_from(*p, items.data(), items.size());
    }
    if (w == "garbage_collection") {
        SystemFlags& f = system_flags(*p->vm);
        return list(p, {pair(p, "max_heap_size", make_small(SWord(f.max_heap_size().size))),
                        pair(p, "min_bin_vheap_size", make_small(SWord(f.min_bin_vheap_size.load()))),
                        pair(p, "min_heap_size", make_small(SWord(f.min_heap_size.load()))),
                        pair(p, "fullsweep_after", make_small(f.fullsweep_after.load()))});
    }
    if (w == "message_queue_data") return message_queue_data_term(false);

    if (w == "port_count") return make_small(0);  // no ports yet
    if (w == "port_limit") return make_small(emu.port_limit);
    if (w == "check_io") return NIL;
    if (w == "ets_count") return make_small(SWord(p->vm->ets_tables->count.load()));
    if (w == "ets_limit") return make_small(8192);
    if (w == "delayed_node_table_gc") return make_small(60);
    if (w == "dist_buf_busy_limit") return make_small(emu.dist_buf_busy_limit);
    if (w == "dist") return make_binary(*p, std::string_view{});  // no distribution
    if (w == "loaded") return loaded_text(p);
    if (w == "procs") return procs_text(p);
    if (w == "info") return make_binary(*p, "=memory\n");
    return NON_VALUE;
}

}  // namespace beam
