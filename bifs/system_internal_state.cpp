// erts_debug:set_internal_state/2 and get_internal_state/1: OTP's test hooks. As in OTP they
// exist only after set_internal_state(available_internal_state, true); before that a call
// raises undef. States beamvm does not have raise badarg, as OTP does for unknown ones.
// Also erts_debug:instructions/0, the other view of the emulator's insides OTP's tests take.
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "dist/dist_system.hpp"
#include "vm/clocks.hpp"
#include "bifs/system_process_info.hpp"
#include "bifs/bif_families.hpp"
#include <shared_mutex>
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/map_hash.hpp"
#include "scheduler/signals.hpp"
#include "vm/term_print.hpp"
#include "bifs/bif_util.hpp"
#include "vm/interp.hpp"
#include "vm/copy_term.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term undef_call(Process* p, const char* name, const Term* a, unsigned arity) {
    p->error(am::undef);
    p->ftop = make_tuple(*p, {atom("erts_debug"), atom(name), make_list_from(*p, a, arity), NIL});
    return NON_VALUE;
}

Term set_internal_state_2(Process* p, const Term* a) {
    bool& available = p->vm->internal_state_available;
    if (a[0] == atom("available_internal_state")) {
        if (a[1] != am::true_ && a[1] != am::false_) return p->badarg();
        bool was = available;
        available = a[1] == am::true_;
        if (available) {
            // As erts: a warning through the system logger each time it is turned on.
            std::string text = "Process " + display_string(p->pid) +
                               " enabled access to the emulator internal state.\n"
                               "NOTE: This is an erts internal test feature and should *only* be used by OTP "
                               "test-suites.\n";
            Term args = make_list_from(*p, std::initializer_list<Term>{make_string(*p, text)}.begin(), 1);
            if (!p->vm->otp_boot || !send_to_system_logger(p, "warning", "~s~n", args))
                std::fprintf(stderr, "%s", text.c_str());
        }
        return make_bool(was);
    }
    if (!available) return undef_call(p, "set_internal_state", a, 2);
    if (a[0] == atom("reds_left")) {
        // What is left of the running slice (the interpreter takes it back after the call).
        if (!is_small(a[1]) || small_value(a[1]) < 1) return p->badarg();
        p->slice_reds_used = REDUCTION_BUDGET - std::min<int64_t>(small_value(a[1]), REDUCTION_BUDGET);
        return am::true_;
    }
    if (a[0] == atom("wait")) {
        // beamvm defers no deallocation, timer cancellation or thread progress: all done.
        Term w = a[1];
        if (w == atom("deallocations") || w == atom("thread_progress") || w == atom("timer_cancellations") ||
            w == atom("aux_work"))
            return am::ok;
        return p->badarg();
    }
    if (a[0] == atom("test_long_gc_sleep")) {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        p->vm->sysmon.test_long_gc_sleep_ms.store(uint64_t(small_value(a[1])), std::memory_order_relaxed);
        return am::true_;
    }
    if (a[0] == atom("block")) {
        // Stops every scheduler for Ms, as erts' thread-progress block (requests to this node
        // wait meanwhile).
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        int64_t ms = small_value(a[1]);
        if (p->vm->scheds) p->vm->scheds->block_until(monotonic_ns() + ms * 1'000'000);
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        if (p->vm->scheds) p->vm->scheds->block_until(0);
        return am::true_;
    }
    if (a[0] == atom("force_gc")) {
        // erts collects the process at its next scheduling. beamvm's BIFs cannot collect (see
        // erlang:garbage_collect/0 in bifs/system.cpp): its collections come at heap checks,
        // so this only answers whether there is such a process.
        if (!is_local_pid(a[1])) return p->badarg();
        if (a[1] == p->pid) return am::true_;
        Process* q = p->vm->procs.lookup(a[1]);
        if (!q) return am::false_;
        ProcessTable::release(q);
        return am::true_;
    }
    if (a[0] == atom("proc_sig_buffers")) {
        // erts then queues this process's incoming signals through per-sender buffers, and
        // answers whether it has them. beamvm's inbox is one queue ordered per sender, which
        // is what the buffers keep: nothing to switch on.
        return a[1] == am::true_ ? am::true_ : atom("notsup");
    }
    if (a[0] == atom("process_uniq_counter")) {
        // erts' per-process counter behind its receive markers' references; beamvm's markers
        // take no numbers from the process, so there is nothing to set (receive_SUITE then
        // runs its receives against beamvm's own markers).
        if (!is_integer(a[1]) || !int_to_int64(a[1])) return p->badarg();
        return am::ok;
    }
    if (a[0] == atom("unique_monotonic_integer_state")) {
        // Any 64-bit integer, signed or not, as erts takes it; false for anything else.
        auto v = is_integer(a[1]) ? int_to_int64(a[1]) : std::nullopt;
        if (v) set_unique_monotonic_state(uint64_t(*v));
        else if (is_big(a[1]) && header_sub(box_header(a[1])) == Sub::PosBig && big_limb_count(a[1]) == 1)
            set_unique_monotonic_state(big_limbs(a[1])[0]);
        else return am::false_;
        return am::true_;
    }
    if (a[0] == atom("gc_state")) {
        // false: the collections others request wait until it is true again (they run at the
        // next scheduling point after that); answers whether they were enabled. erts also
        // stops the process's own collections; beamvm's still run at its heap checks.
        if (a[1] != am::true_ && a[1] != am::false_) return p->badarg();
        bool was_enabled = !p->gc_requests_held;
        p->gc_requests_held = a[1] == am::false_;
        return make_bool(was_enabled);
    }
    if (a[0] == atom("sleep")) {
        // Blocks this scheduler thread, as erts' does (tests use it to stall one).
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        std::this_thread::sleep_for(std::chrono::milliseconds(small_value(a[1])));
        return am::true_;
    }
    return p->badarg();
}

// {binary_info, Bin}: heap_binary, or for an off-heap one (directly or under a sub-binary)
// {refc_binary, Size, {binary, BlobBytes}, Flags} as erts' (erl_bif_info.c). BlobBytes is the
// blob's capacity (erts' orig_size, which also counts a writable binary's spare room); Flags
// are erts' PB_IS_WRITABLE | PB_ACTIVE_WRITER (3) for the newest binary of a blob with room
// to grow in place (vm/interp_bits.cpp, append_to_writable), else 0.
Term binary_info(Process* p, Term bin) {
    if (!is_bitstring(bin)) return p->badarg();
    const Term* b = boxed_ptr(bin);
    if (header_sub(b[0]) == Sub::SubBin) b = boxed_ptr(b[1]);
    if (header_sub(b[0]) != Sub::RefcBin) return atom("heap_binary");
    const auto* blob = reinterpret_cast<const BinaryBlob*>(b[2].raw);
    size_t size = size_t(b[1].raw);
    size_t in_use = std::atomic_ref<size_t>(const_cast<BinaryBlob*>(blob)->size).load();
    int flags = blob->capacity > size && in_use == size ? 3 : 0;
    Term orig = make_tuple(*p, {atom("binary"), make_integer(*p, int64_t(blob->capacity))});
    return make_tuple(*p, {atom("refc_binary"), make_integer(*p, int64_t(size)), orig, make_small(flags)});
}

// {process_status, Pid}: undefined once the process is gone from the process table (erts: its
// structure is freed), else what process_info(Pid, status) would say, as far as it can be read
// without taking the process: exiting, suspended, running, or waiting.
Term process_status(Process* p, Term pid) {
    if (!is_local_pid(pid)) return p->badarg();
    if (pid == p->pid) return atom("running");
    Process* q = p->vm->procs.lookup(pid);
    if (!q) return am::undefined;
    uint32_t st = q->sched.state.load(std::memory_order_acquire);
    Term status = st & run_state::EXITED                                    ? atom("exiting")
                  : q->sched.suspend_count.load(std::memory_order_acquire) ? atom("suspended")
                  : st & (run_state::RUNNING | run_state::QUEUED)          ? atom("runnable")
                                                                           : atom("waiting");
    ProcessTable::release(q);
    return status;
}

// Every item process_info/2 takes, in erts' order (process_SUITE checks each is accepted).
constexpr const char* PROCESS_INFO_ITEMS[] = {
    "registered_name", "current_function", "initial_call", "status", "messages", "message_queue_len",
    "links", "monitors", "monitored_by", "dictionary", "trap_exit", "error_handler", "heap_size",
    "stack_size", "memory", "garbage_collection", "group_leader", "reductions", "priority", "trace",
    "binary", "sequential_trace_token", "catchlevel", "backtrace", "last_calls", "total_heap_size",
    "suspending", "min_heap_size", "min_bin_vheap_size", "max_heap_size", "current_location",
    "current_stacktrace", "message_queue_data", "garbage_collection_info", "magic_ref",
    "fullsweep_after", "parent"};

// erts' #ptab_list_bif_info{}: how processes/0 walks the table and when it yields. beamvm's
// copies the whole table in one step without yielding: one chunk the size of the table, no
// reductions for terminated processes, and 1 reduction to start.
Term processes_bif_info(Process* p) {
    Term table_size = make_small(SWord(p->vm->emu_options.process_limit));
    return make_tuple(*p, {atom("ptab_list_bif_info"), make_small(1), make_small(1), table_size, table_size,
                           make_small(0), make_small(0), make_small(0), make_small(0), make_small(0)});
}

// get_internal_state(stack_check): recurses on the C stack until a margin above the end of this
// thread's stack, as erts does to show its stack limit works; the answer is the bytes used.
[[gnu::noinline]] size_t recurse_to(const char* start, const char* limit) {
    volatile char frame[512];
    frame[0] = 0;
    if (frame + 0 <= limit) return size_t(start - const_cast<const char*>(frame + 0));
    return recurse_to(start, limit) + frame[0];  // not a tail call: each level keeps its frame
}

Term stack_check(Process* p) {
    pthread_attr_t attr;
    void* base = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return am::undefined;
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
    char here;
    const char* limit = static_cast<const char*>(base) + 64 * 1024;  // the stack grows down to base
    if (&here <= limit) return make_small(0);
    return make_integer_u(*p, recurse_to(&here, limit));
}

Term get_internal_state_1(Process* p, const Term* a) {
    if (!p->vm->internal_state_available) return undef_call(p, "get_internal_state", a, 1);
    if (a[0] == atom("available_internal_state")) return am::true_;
    if (a[0] == atom("force_heap_frags")) return am::false_;  // no such build flavour
    if (a[0] == atom("monitoring_nodes")) return dist::dist_of(*p->vm).monitoring_nodes(p);
    if (a[0] == atom("reds_left")) return make_small(REDUCTION_BUDGET - p->slice_reds_used);
    if (a[0] == atom("nbalance")) {
        // erts counts its run-queue balance checks, one each time the schedulers have run
        // 2000*2000 reductions apiece (ERTS_RUNQ_CHECK_BALANCE_REDS_PER_SCHED). beamvm balances
        // by stealing instead, with no such step: the same count is derived from the
        // reductions run (scheduler_SUITE waits for it to advance while its workers run).
        constexpr int64_t BALANCE_REDS_PER_SCHED = 2000 * 2000;
        int64_t online = p->vm->scheds ? std::max(1, p->vm->scheds->online()) : 1;
        int64_t total = p->vm->scheds ? p->vm->scheds->total_reductions() : p->reductions;
        return make_integer(*p, total / (BALANCE_REDS_PER_SCHED * online));
    }
    if (a[0] == atom("process_info_args")) {
        std::vector<Term> items;
        for (const char* name : PROCESS_INFO_ITEMS) items.push_back(atom(name));
        return make_list_from(*p, items.data(), items.size());
    }
    if (a[0] == atom("processes")) {
        auto pids = p->vm->procs.pids();
        return make_list_from(*p, pids.data(), pids.size());
    }
    if (a[0] == atom("processes_bif_info")) return processes_bif_info(p);
    if (a[0] == atom("stack_check")) return stack_check(p);
    if (a[0] == atom("memory")) {
        // erts: erlang:memory() with every other thread stopped; beamvm's figures are read the
        // same way erlang:memory/0 reads them (bifs/system_memory.cpp).
        const BifSpec* memory = find_bif_in(*p->vm, am::erlang, atom("memory"), 0);
        return memory->fn(p, nullptr);
    }
    if (a[0] == atom("unique_monotonic_integer_state")) return make_integer_u(*p, unique_monotonic_state());
    if (a[0] == atom("min_unique_monotonic_integer")) return make_small(SMALL_MIN);
    if (a[0] == atom("persistent_term")) {
        // #{table => Buckets}: the size of the hash table behind persistent_term.
        size_t buckets;
        {
            std::shared_lock lock(p->vm->persistent.mutex);
            buckets = p->vm->persistent.table_size;
        }
        return map_from_pairs(*p, {{atom("table"), make_integer(*p, int64_t(buckets))}});
    }
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 &&
        (tuple_elem(a[0], 0) == atom("link_list") || tuple_elem(a[0], 0) == atom("monitor_list")))
        return link_or_monitor_list(p, a[0]);
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_elem(a[0], 0) == atom("binary_info"))
        return binary_info(p, tuple_elem(a[0], 1));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_elem(a[0], 0) == atom("process_status"))
        return process_status(p, tuple_elem(a[0], 1));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_elem(a[0], 0) == atom("internal_hash"))
        return make_integer(*p, int64_t(internal_hash(tuple_elem(a[0], 1), 0)));
    return p->badarg();
}

// erts_debug:copy_shared(Term, CopyLiterals): a copy on the caller's heap that keeps the
// sharing inside Term (erts' copy_shared). Literals are always copied here, also when
// CopyLiterals is false (erts then leaves them in place): the copy is equal either way.
Term copy_shared_2(Process* p, const Term* a) {
    if (a[1] != am::true_ && a[1] != am::false_) return p->badarg();
    return copy_term_shared(a[0], *p);
}

// The names of the emulator's instructions, as strings: beamvm's own specific instructions
// (vm/instructions.tab), where erts lists its own.
Term instructions_0(Process* p, const Term*) {
    Term list = NIL;
    for (size_t i = size_t(Op::COUNT); i-- > 0;)
        list = cons_at(p->alloc(2), make_string(*p, instr_meta(Op(i)).name), list);
    return list;
}

// erts_debug:disassemble/1 (and df/1, which writes what it returns): beamvm, like erl's JIT,
// has no instruction-by-instruction listing of loaded code, and answers false as erl 25 does.
Term disassemble_1(Process*, const Term*) { return am::false_; }

const BifSpec table[] = {
    {"erts_debug", "disassemble", 1, &disassemble_1},
    {"erts_debug", "instructions", 0, &instructions_0},
    {"erts_debug", "set_internal_state", 2, &set_internal_state_2},
    {"erts_debug", "copy_shared", 2, &copy_shared_2},
    {"erts_debug", "get_internal_state", 1, &get_internal_state_1},
};

}  // namespace

std::span<const BifSpec> internal_state_bifs() { return table; }

}  // namespace beam
