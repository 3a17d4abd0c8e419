// enif_* process monitors held by resources (nif/resource_monitors.hpp).
#include <cstring>

#include "nif/nif_env.hpp"
#include "nif/resource_monitors.hpp"
#include "nif/resources.hpp"
#include "vm/term_refs.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;
using beam::nif::ResourceObject;

extern "C" {

// 0: monitoring; 1: `target` is not a live local process (or is undefined); -1: the
// resource's type has no `down` callback (erl_nif.c).
int enif_monitor_process(ErlNifEnv*, void* obj, const ErlNifPid* target, ErlNifMonitor* monitor) {
    nif::ResourceMonitors* ms = ResourceObject::of(obj)->monitors();
    if (!ms) return -1;
    if (T(target->pid) == am::undefined) return 1;
    return ms->monitor(T(target->pid), monitor);
}

int enif_demonitor_process(ErlNifEnv*, void* obj, const ErlNifMonitor* monitor) {
    nif::ResourceMonitors* ms = ResourceObject::of(obj)->monitors();
    return ms ? ms->demonitor(*monitor) : 1;
}

// erts compares the monitors' reference words with memcmp; so do we, over the whole struct
// (beamvm's bytes past the reference and id are always zero).
int enif_compare_monitors(const ErlNifMonitor* a, const ErlNifMonitor* b) { return std::memcmp(a, b, sizeof *a); }

// The monitor's reference, as erts gives it: an ordinary reference, the same (=:=) each time.
ERL_NIF_TERM enif_make_monitor_term(ErlNifEnv* env, const ErlNifMonitor* monitor) {
    return N(make_ref_from_number(nif::heap(env), nif::monitor_bytes(*monitor).ref_number));
}

}  // extern "C"
