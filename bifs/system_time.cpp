// Time and timers: erlang:monotonic_time, system_time, time_offset, timestamp,
// convert_time_unit, send_after, start_timer, cancel_timer, read_timer, statistics.
#include <atomic>
#include <chrono>
#include <ctime>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/bignum.hpp"
#include "vm/clocks.hpp"
#include "vm/copy_term.hpp"
#include "vm/gc.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

using namespace std::chrono;

// The native unit is the nanosecond, as OTP's on Linux.
constexpr int64_t NATIVE_PER_SECOND = 1'000'000'000;

// Parts per second of a time unit, or 0 if `u` is not one.
int64_t unit_parts(Term u) {
    if (u == am::second || u == atom("seconds")) return 1;
    if (u == am::millisecond || u == atom("milli_seconds")) return 1000;
    if (u == am::microsecond || u == atom("micro_seconds")) return 1'000'000;
    if (u == am::nanosecond || u == atom("nano_seconds") || u == am::native || u == atom("perf_counter"))
        return NATIVE_PER_SECOND;
    if (is_small(u) && small_value(u) > 0) return small_value(u);
    return 0;
}

// floor(value * to / from), as OTP converts (rounding towards negative infinity).
int64_t convert(int64_t value, int64_t from, int64_t to) {
    __int128 v = __int128(value) * to;
    __int128 q = v / from;
    if ((v % from != 0) && ((v < 0) != (from < 0))) --q;
    return int64_t(q);
}


Term int_term(Process* p, int64_t v) { return make_integer(*p, v); }

// A time in nanoseconds expressed in unit `u` (a named unit or any positive integer, bignums
// too, as erts takes them), rounded towards negative infinity; NON_VALUE if `u` is no unit.
Term in_unit(Process* p, int64_t ns, Term u) {
    // Named units fit 64 bits; an integer unit may not (monotonic_time(10^12) is about -5.8e20).
    if (int64_t parts = unit_parts(u); parts && is_atom(u)) return int_term(p, convert(ns, NATIVE_PER_SECOND, parts));
    if (!is_integer(u) || int_sign(u) <= 0) return NON_VALUE;
    Term scaled = int_mul(*p, u, make_integer(*p, ns));
    if (ns < 0) scaled = int_sub(*p, scaled, make_small(NATIVE_PER_SECOND - 1));
    return int_div(*p, scaled, make_small(NATIVE_PER_SECOND));
}
Term time_in_unit(Process* p, int64_t ns, Term u) {
    Term r = in_unit(p, ns, u);
    return is_value(r) ? r : p->badarg();
}

Term monotonic_time_0(Process* p, const Term*) { return int_term(p, monotonic_ns()); }
Term monotonic_time_1(Process* p, const Term* a) { return time_in_unit(p, monotonic_ns(), a[0]); }
Term system_time_0(Process* p, const Term*) { return int_term(p, system_ns()); }
Term system_time_1(Process* p, const Term* a) { return time_in_unit(p, system_ns(), a[0]); }
Term time_offset_0(Process* p, const Term*) { return int_term(p, time_offset_ns()); }
Term time_offset_1(Process* p, const Term* a) { return time_in_unit(p, time_offset_ns(), a[0]); }
Term timestamp_term(Process* p, int64_t us) {
    return make_tuple(*p, {make_small(us / 1'000'000'000'000), make_small(us / 1'000'000 % 1'000'000),
                           make_small(us % 1'000'000)});
}
Term timestamp_0(Process* p, const Term*) { return timestamp_term(p, system_ns() / 1000); }

// erlang:now/0: unique and strictly increasing across the whole VM (vm/clocks.hpp).
Term now_0(Process* p, const Term*) { return timestamp_term(p, unique_now_us()); }

// erlang:convert_time_unit/3 is Erlang code in OTP's erlang.erl: a unit is a named one or
// any positive integer (bignums too), Time any integer, and the result is rounded towards
// negative infinity; whatever else makes its arithmetic fail there becomes badarg.
Term convert_unit(Process* p, Term u) {
    if (int64_t parts = unit_parts(u); parts && is_atom(u)) return make_integer(*p, parts);
    if (is_integer(u) && int_sign(u) > 0) return u;
    return NON_VALUE;
}
Term convert_time_unit_3(Process* p, const Term* a) {
    Term time = a[0], from = convert_unit(p, a[1]), to = convert_unit(p, a[2]);
    if (!is_integer(time) || is_non_value(from) || is_non_value(to)) return p->badarg();
    Term scaled = int_mul(*p, to, time);
    if (int_sign(time) < 0) scaled = int_sub(*p, scaled, int_sub(*p, from, make_small(1)));
    return int_div(*p, scaled, from);
}

Term make_date_time(Process* p, const std::tm& t) {
    return make_tuple(*p, {make_tuple(*p, {make_small(t.tm_year + 1900), make_small(t.tm_mon + 1), make_small(t.tm_mday)}),
                           make_tuple(*p, {make_small(t.tm_hour), make_small(t.tm_min), make_small(t.tm_sec)})});
}
Term universaltime_0(Process* p, const Term*) {
    std::time_t now = std::time(nullptr);
    std::tm t;
    gmtime_r(&now, &t);
    return make_date_time(p, t);
}
Term localtime_0(Process* p, const Term*) {
    std::time_t now = std::time(nullptr);
    std::tm t;
    localtime_r(&now, &t);
    return make_date_time(p, t);
}

// ---- timers ----

// The monotonic times, in milliseconds, a timer may be set for: from the VM's start to erts'
// end of time (system_info(end_time) of 64-bit erts, in native units).
constexpr int64_t TIMER_START_MS = -576460752304;
constexpr int64_t TIMER_END_MS = 8646911283000;

// Milliseconds until the timer fires, honouring {abs, true} (Time is then monotonic ms).
// OTP (erl_hl_timer.c) checks the options first, then the time; each failure is a badarg
// whose error_info cause says which (badopt, time).
enum class TimerArg { Ok, BadOpt, BadTime };
TimerArg timer_ms(Term time, Term opts, int64_t* ms) {
    bool abs = false;
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_elem(o, 0) != atom("abs") ||
            !is_boolean_atom(tuple_elem(o, 1)))
            return TimerArg::BadOpt;
        abs = tuple_elem(o, 1) == am::true_;
    }
    if (!is_nil(opts)) return TimerArg::BadOpt;
    if (!is_small(time)) return TimerArg::BadTime;
    int64_t t = small_value(time);
    int64_t now = convert(monotonic_ns(), NATIVE_PER_SECOND, 1000);
    if (abs) {
        if (t < TIMER_START_MS || t > TIMER_END_MS) return TimerArg::BadTime;
        t -= now;
    } else if (t < 0 || t > TIMER_END_MS - now) {
        return TimerArg::BadTime;
    }
    *ms = t < 0 ? 0 : t;
    return TimerArg::Ok;
}

Term start_message_timer(Process* p, Term time, Term dest, Term msg, Term opts, bool wrap) {
    int64_t ms;
    switch (timer_ms(time, opts, &ms)) {
    case TimerArg::Ok: break;
    case TimerArg::BadOpt: p->badarg(); p->fcause = atom("badopt"); return NON_VALUE;
    case TimerArg::BadTime: p->badarg(); p->fcause = atom("time"); return NON_VALUE;
    }
    if (!(is_local_pid(dest) || is_atom(dest))) return p->badarg();
    uint64_t n = next_ref_number();
    Term ref = make_ref_from_number(*p, n);
    Term payload = wrap ? make_tuple(*p, {am::timeout, ref, msg}) : msg;
    // A timer to a pid that is not alive is cancelled at once (its ref reads as false).
    if (is_local_pid(dest) && dest != p->pid) {
        Process* q = p->vm->procs.lookup(dest);
        bool alive = q && !(q->sched.state.load() & run_state::EXITED);
        if (q) ProcessTable::release(q);
        if (!alive) return ref;
    }
    p->vm->timers.start_message_timer(n, dest, copy_to_buffer(payload), ms, p->ns);
    return ref;
}

Term send_after_3(Process* p, const Term* a) { return start_message_timer(p, a[0], a[1], a[2], NIL, false); }
Term send_after_4(Process* p, const Term* a) { return start_message_timer(p, a[0], a[1], a[2], a[3], false); }
Term start_timer_3(Process* p, const Term* a) { return start_message_timer(p, a[0], a[1], a[2], NIL, true); }
Term start_timer_4(Process* p, const Term* a) { return start_message_timer(p, a[0], a[1], a[2], a[3], true); }

Term timer_result(std::optional<int64_t> left) { return left ? make_small(*left) : am::false_; }

// Another node's reference is never a timer here: false, as erts answers.
std::optional<int64_t> timer_left(Process* p, Term ref, bool cancel) {
    if (!is_boxed_sub(ref, Sub::Ref)) return std::nullopt;
    return cancel ? p->vm->timers.cancel(ref_number(ref)) : p->vm->timers.remaining(ref_number(ref));
}

Term cancel_timer(Process* p, Term ref, Term opts) {
    if (!is_ref(ref)) return p->badarg();
    bool async = false, info = true;
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (!is_tuple(o) || tuple_arity(o) != 2 || !is_boolean_atom(tuple_elem(o, 1))) return p->badarg();
        if (tuple_elem(o, 0) == atom("async")) async = tuple_elem(o, 1) == am::true_;
        else if (tuple_elem(o, 0) == atom("info")) info = tuple_elem(o, 1) == am::true_;
        else return p->badarg();
    }
    if (!is_nil(opts)) return p->badarg();
    Term r = timer_result(timer_left(p, ref, true));
    if (!async) return info ? r : am::ok;
    if (info) p->mailbox_push(make_tuple(*p, {atom("cancel_timer"), ref, r}));
    return am::ok;
}
Term cancel_timer_1(Process* p, const Term* a) { return cancel_timer(p, a[0], NIL); }
Term cancel_timer_2(Process* p, const Term* a) { return cancel_timer(p, a[0], a[1]); }

Term read_timer(Process* p, Term ref, Term opts) {
    if (!is_ref(ref)) return p->badarg();
    bool async = false;
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_elem(o, 0) != atom("async") ||
            !is_boolean_atom(tuple_elem(o, 1)))
            return p->badarg();
        async = tuple_elem(o, 1) == am::true_;
    }
    if (!is_nil(opts)) return p->badarg();
    Term r = timer_result(timer_left(p, ref, false));
    if (!async) return r;
    p->mailbox_push(make_tuple(*p, {atom("read_timer"), ref, r}));
    return am::ok;
}
Term read_timer_1(Process* p, const Term* a) { return read_timer(p, a[0], NIL); }
Term read_timer_2(Process* p, const Term* a) { return read_timer(p, a[0], a[1]); }

// ---- statistics ----

int64_t cpu_ms() { return int64_t(std::clock()) * 1000 / CLOCKS_PER_SEC; }

Term statistics_1(Process* p, const Term* a) {
    Term what = a[0];
    // {Total, SinceLastCall}: the "since last call" part is per VM, as OTP's.
    static std::atomic<int64_t> last_runtime{0}, last_wall{0}, last_reds{0};
    auto pair = [&](int64_t now, std::atomic<int64_t>& last) {
        int64_t prev = last.exchange(now);
        return make_tuple(*p, {int_term(p, now), int_term(p, now - prev)});
    };
    if (what == atom("runtime")) return pair(cpu_ms(), last_runtime);
    // Since the VM started: the monotonic clock's start (system_info(start_time)).
    if (what == atom("wall_clock")) return pair((monotonic_ns() + int64_t(576460752303423488LL)) / 1'000'000, last_wall);
    // All processes' reductions, as erts counts them: the finished time slices of every
    // scheduler plus the caller's running one (scheduler_SUITE waits for a total to pass).
    if (what == atom("reductions") || what == atom("exact_reductions")) {
        int64_t total = p->vm->scheds ? p->vm->scheds->total_reductions() : p->reductions;
        return pair(total + p->slice_reds_used, last_reds);
    }
    if (what == atom("run_queue") || what == atom("total_run_queue_lengths")) return make_small(0);
    // Every time a process was scheduled in, the caller's current run included (erts counts it
    // when the process is scheduled in; the finished runs are counted when they end).
    if (what == atom("context_switches")) {
        uint64_t n = p->vm->scheds ? p->vm->scheds->total_slices() + 1 : 0;
        return make_tuple(*p, {make_integer(*p, int64_t(n)), make_small(0)});
    }
    if (what == atom("garbage_collection")) {
        const GcTotals& gc = gc_totals();
        int64_t n = int64_t(gc.collections.load(std::memory_order_relaxed));
        int64_t words = int64_t(gc.words_reclaimed.load(std::memory_order_relaxed));
        return make_tuple(*p, {int_term(p, n), int_term(p, words), make_small(0)});
    }
    if (what == atom("io")) {
        Term zero_in = make_tuple(*p, {atom("input"), make_small(0)});
        Term zero_out = make_tuple(*p, {atom("output"), make_small(0)});
        return make_tuple(*p, {zero_in, zero_out});
    }
    return p->badarg();
}

// Run-queue statistics (OTP's erts_run_queues_len, erts_active_tasks): one entry per normal
// scheduler, then the dirty CPU run queue, then (the _all forms) the dirty I/O one.
// scheduler_wall_time[_all]: {Id, ActiveTime, TotalTime} per scheduler (normal ones, dirty
// CPU ones, then with _all the dirty I/O ones), in nanoseconds since the measurement was
// switched on (Schedulers::wall_times), or undefined while it is off. erl 25 answers badarg
// for total_scheduler_wall_time, on or off.
Term scheduler_statistics(Process* p, Term what) {
    bool all = false;
    bool active = false;
    bool total = false;
    if (what == atom("run_queue")) what = atom("total_run_queue_lengths");  // the same count
    std::string_view name = atom_name(what);
    if (name.ends_with("_all")) {
        all = true;
        name.remove_suffix(4);
    }
    if (name.starts_with("total_")) {
        total = true;
        name.remove_prefix(6);
    }
    if (name == "scheduler_wall_time" && !total) {
        auto w = p->vm->scheds ? p->vm->scheds->wall_times(all) : std::nullopt;
        if (!w) return am::undefined;
        std::vector<Term> items;
        for (size_t i = 0; i < w->busy.size(); ++i)
            items.push_back(make_tuple(*p, {make_small(SWord(i + 1)), int_term(p, w->busy[i]), int_term(p, w->total)}));
        return make_list_from(*p, items.data(), items.size());
    }
    if (name == "active_tasks") active = true;
    else if (name != "run_queue_lengths") return NON_VALUE;
    std::vector<size_t> lens = p->vm->scheds ? p->vm->scheds->queue_lengths(active) : std::vector<size_t>{1};
    Schedulers* scheds = p->vm->scheds.get();
    lens.push_back(scheds ? scheds->dirty().queue_length(dirty_kind::CPU, active) : 0);
    if (all) lens.push_back(scheds ? scheds->dirty().queue_length(dirty_kind::IO, active) : 0);
    if (total) {
        size_t sum = 0;
        for (size_t n : lens) sum += n;
        return make_small(SWord(sum));
    }
    std::vector<Term> items;
    for (size_t n : lens) items.push_back(make_small(SWord(n)));
    return make_list_from(*p, items.data(), items.size());
}

Term statistics_1_with_schedulers(Process* p, const Term* a) {
    if (is_atom(a[0]))
        if (Term r = scheduler_statistics(p, a[0]); is_value(r)) return r;
    return statistics_1(p, a);
}

const BifSpec table[] = {
    {"erlang", "monotonic_time", 0, &monotonic_time_0},
    {"erlang", "monotonic_time", 1, &monotonic_time_1},
    {"erlang", "system_time", 0, &system_time_0},
    {"erlang", "system_time", 1, &system_time_1},
    {"os", "system_time", 0, &system_time_0},
    {"os", "system_time", 1, &system_time_1},
    {"erlang", "time_offset", 0, &time_offset_0},
    {"erlang", "time_offset", 1, &time_offset_1},
    {"erlang", "timestamp", 0, &timestamp_0},
    {"os", "timestamp", 0, &timestamp_0},
    {"erlang", "now", 0, &now_0},
    {"erlang", "convert_time_unit", 3, &convert_time_unit_3},
    {"erlang", "universaltime", 0, &universaltime_0},
    {"erlang", "localtime", 0, &localtime_0},
    {"erlang", "send_after", 3, &send_after_3},
    {"erlang", "send_after", 4, &send_after_4},
    {"erlang", "start_timer", 3, &start_timer_3},
    {"erlang", "start_timer", 4, &start_timer_4},
    {"erlang", "cancel_timer", 1, &cancel_timer_1},
    {"erlang", "cancel_timer", 2, &cancel_timer_2},
    {"erlang", "read_timer", 1, &read_timer_1},
    {"erlang", "read_timer", 2, &read_timer_2},
    {"erlang", "statistics", 1, &statistics_1_with_schedulers},
};

}  // namespace

std::span<const BifSpec> time_bifs() { return table; }

}  // namespace beam
