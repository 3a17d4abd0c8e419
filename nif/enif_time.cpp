// enif_* time: the same clocks as erlang:monotonic_time/1, time_offset/1 and now/0
// (vm/clocks.hpp), the calling thread's CPU time, and erlang:unique_integer/1's values.
#include <ctime>

#include "bifs/bif_util.hpp"
#include "nif/nif_env.hpp"
#include "vm/bignum.hpp"
#include "vm/clocks.hpp"

using namespace beam;
using beam::nif::N;

namespace {

// Parts per second of an ErlNifTimeUnit, 0 for anything else.
int64_t unit_parts(ErlNifTimeUnit u) {
    switch (int(u)) {
    case ERL_NIF_SEC: return 1;
    case ERL_NIF_MSEC: return 1000;
    case ERL_NIF_USEC: return 1'000'000;
    case ERL_NIF_NSEC: return 1'000'000'000;
    default: return 0;
    }
}

// Nanoseconds in `parts` per second, rounded towards negative infinity as the BIFs round.
int64_t floor_in_unit(int64_t ns, int64_t parts) {
    int64_t denom = 1'000'000'000 / parts;
    return ns >= 0 ? ns / denom : (ns - (denom - 1)) / denom;
}

// erts answers the monotonic time and the time offset on scheduler threads only (normal or
// dirty: erts_get_scheduler_data), ERL_NIF_TIME_ERROR elsewhere.
bool on_scheduler() { return enif_thread_type() != ERL_NIF_THR_UNDEFINED; }

ERL_NIF_TERM timestamp(ErlNifEnv* env, int64_t mega, int64_t sec, int64_t micro) {
    return enif_make_tuple3(env, enif_make_long(env, mega), enif_make_long(env, sec), enif_make_long(env, micro));
}

}  // namespace

extern "C" {

ErlNifTime enif_monotonic_time(ErlNifTimeUnit unit) {
    int64_t parts = unit_parts(unit);
    if (!parts || !on_scheduler()) return ERL_NIF_TIME_ERROR;
    return floor_in_unit(monotonic_ns(), parts);
}

ErlNifTime enif_time_offset(ErlNifTimeUnit unit) {
    int64_t parts = unit_parts(unit);
    if (!parts || !on_scheduler()) return ERL_NIF_TIME_ERROR;
    return floor_in_unit(time_offset_ns(), parts);
}

// erts' conversion, overflow included: a finer unit multiplies (wrapping as erts' int64
// arithmetic does in practice), a coarser one divides rounding towards negative infinity.
ErlNifTime enif_convert_time_unit(ErlNifTime val, ErlNifTimeUnit from, ErlNifTimeUnit to) {
    int64_t ffreq = unit_parts(from), tfreq = unit_parts(to);
    if (!ffreq || !tfreq) return ERL_NIF_TIME_ERROR;
    if (tfreq >= ffreq) return ErlNifTime(uint64_t(val) * uint64_t(tfreq / ffreq));
    int64_t denom = ffreq / tfreq;
    return val >= 0 ? val / denom : (val - (denom - 1)) / denom;
}

// erlang:now/0's value: unique and strictly increasing across the VM.
ERL_NIF_TERM enif_now_time(ErlNifEnv* env) {
    int64_t us = unique_now_us();
    return timestamp(env, us / 1'000'000'000'000, us / 1'000'000 % 1'000'000, us % 1'000'000);
}

// The CPU time of the calling thread (erts: CLOCK_THREAD_CPUTIME_ID) as {Mega, Sec, Micro},
// each part wrapped below a million as erts_get_now_cpu does.
ERL_NIF_TERM enif_cpu_time(ErlNifEnv* env) {
    timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return enif_make_badarg(env);
    int64_t s = ts.tv_sec;
    return timestamp(env, s / 1'000'000 % 1'000'000, s % 1'000'000, ts.tv_nsec / 1000);
}

// beamvm's unique integers come from one strictly increasing positive counter, which meets
// every combination of ERL_NIF_UNIQUE_POSITIVE and ERL_NIF_UNIQUE_MONOTONIC, as the BIF's do.
ERL_NIF_TERM enif_make_unique_integer(ErlNifEnv* env, ErlNifUniqueInteger props) {
    return N(make_unique_integer(nif::heap(env), props & ERL_NIF_UNIQUE_POSITIVE, props & ERL_NIF_UNIQUE_MONOTONIC));
}

}  // extern "C"
