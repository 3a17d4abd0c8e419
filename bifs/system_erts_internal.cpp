// erts_internal natives that OTP's own Erlang code calls (erlang.erl, erts_internal.erl, the
// stdlib, kernel and test suites), other than the families with files of their own (process
// signals, spawn_request, atomics, counters, code loading).
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_flags.hpp"
#include "bifs/system_spawn.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/system_flags.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// The kind of object a term is in OTP's representation (erts_internal:term_type/1), mapped
// from beamvm's, which keeps the same distinctions.
Term term_type_1(Process*, const Term* a) {
    Term t = a[0];
    if (is_small(t)) return atom("fixnum");
    if (is_atom(t)) return atom("atom");
    if (is_nil(t)) return atom("nil");
    if (is_local_pid(t)) return atom("pid");
    if (is_local_port(t)) return atom("port");
    if (is_list(t)) return atom("list");
    if (!is_boxed(t)) return atom("catch");
    switch (header_sub(box_header(t))) {
    case Sub::Tuple: return atom("tuple");
    case Sub::MatchState: return atom("matchstate");
    case Sub::PosBig:
    case Sub::NegBig: return atom("bignum");
    case Sub::Ref: return atom("reference");
    case Sub::Fun: return atom("fun");
    case Sub::Float: return atom("hfloat");
    case Sub::Export: return atom("export");
    case Sub::RefcBin: return atom("refc_binary");
    case Sub::HeapBin: return atom("heap_binary");
    case Sub::SubBin: return atom("sub_binary");
    case Sub::Map: return atom("flatmap");
    case Sub::HashMap: return hamt_is_head(t) ? atom("hashmap") : atom("hashmap_node");
    case Sub::ExtPid: return atom("external_pid");
    case Sub::ExtPort: return atom("external_port");
    case Sub::ExtRef: return atom("external_reference");
    }
    return atom("catch");
}

// The keys tuple of a flat map (OTP shares it between maps with the same keys).
Term map_to_tuple_keys_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return p->error2(am::badmap, a[0]);
    if (!is_flat_map(a[0])) return p->badarg();
    return map_keys_tuple(a[0]);
}

// The children of a hash map node, as a list (last child first, as OTP builds it). The
// shapes of beamvm's trie nodes are its own, so the children are not OTP's.
Term map_hashmap_children_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return p->error2(am::badmap, a[0]);
    if (!is_hash_map(a[0])) return p->badarg();
    Term list = NIL;
    const Term* c = hamt_children(a[0]);
    for (size_t i = 0; i < hamt_child_count(a[0]); ++i) list = cons_at(p->alloc(2), c[i], list);
    return list;
}

// Units per second of erlang:monotonic_time/0 and os:perf_counter/0: nanoseconds.
Term time_unit_0(Process*, const Term*) { return make_small(1000000000); }

// No process is a system process: beamvm starts none of OTP's (erts_code_purger,
// erts_literal_area_collector, ...).
Term is_system_process_1(Process* p, const Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    return am::false_;
}

// Threads doing auxiliary work, as erlang:memory/0 counts replies: one per scheduler and one
// more, as OTP (beamvm answers memory requests itself, so this only keeps the count honest).
Term no_aux_work_threads_0(Process* p, const Term*) {
    return make_small(SWord(p->vm->scheds ? p->vm->scheds->count() : 1) + 1);
}

// Exact term order (1 < 1.0), -1, 0 or 1.
Term cmp_term_2(Process*, const Term* a) { return make_small(compare_terms_exact(a[0], a[1])); }

// erlang:system_flag(scheduler_wall_time, Bool) goes through here in OTP: previous value.
// erlang.erl checks the boolean; erts takes anything but `true` as false.
Term scheduler_wall_time_1(Process* p, const Term* a) { return make_bool(set_scheduler_wall_time(p, a[0] == am::true_)); }

// heart's check that schedulers respond: they do when this runs.
Term system_check_1(Process* p, const Term* a) {
    if (a[0] != atom("schedulers")) return p->badarg();
    return am::ok;
}

// Whether a dirty scheduler has the process (a NIF step flagged dirty, scheduler/
// dirty_schedulers.hpp).
Term is_process_executing_dirty_1(Process* p, const Term* a) {
    if (!is_local_pid(a[0])) return p->badarg();
    Process* q = p->vm->procs.lookup(a[0]);
    if (!q) return am::false_;
    bool dirty = q->sched.dirty.load(std::memory_order_acquire) != dirty_kind::NONE;
    ProcessTable::release(q);
    return make_bool(dirty);
}

// Handling the signals of a process stuck in a dirty native: erts too answers `notsup` for
// every argument in its ordinary build.
Term dirty_process_handle_signals_1(Process* p, const Term*) { return p->error(atom("notsup")); }

Term check_dirty_process_code_2(Process* p, const Term* a) {
    if (!is_local_pid(a[0]) || !is_atom(a[1])) return p->badarg();
    return am::false_;
}

// A process OTP's own code starts for the runtime (prim_file's and socket's helpers). OTP
// keeps such processes out of some bookkeeping and halts the node when one ends; beamvm
// spawns an ordinary process (its end takes nothing down).
Term spawn_system_process_3(Process* p, const Term* a) {
    SpawnOpts o(*p->vm);
    return spawn_mfa(p, a[0], a[1], a[2], o);
}

const BifSpec table[] = {
    {"erts_internal", "spawn_system_process", 3, &spawn_system_process_3},
    {"erts_internal", "term_type", 1, &term_type_1},
    {"erts_internal", "map_to_tuple_keys", 1, &map_to_tuple_keys_1},
    {"erts_internal", "map_hashmap_children", 1, &map_hashmap_children_1},
    {"erts_internal", "time_unit", 0, &time_unit_0},
    {"erts_internal", "perf_counter_unit", 0, &time_unit_0},
    {"erts_internal", "is_system_process", 1, &is_system_process_1},
    {"erts_internal", "no_aux_work_threads", 0, &no_aux_work_threads_0},
    {"erts_internal", "cmp_term", 2, &cmp_term_2},
    {"erts_internal", "scheduler_wall_time", 1, &scheduler_wall_time_1},
    {"erts_internal", "system_check", 1, &system_check_1},
    {"erts_internal", "is_process_executing_dirty", 1, &is_process_executing_dirty_1},
    {"erts_internal", "dirty_process_handle_signals", 1, &dirty_process_handle_signals_1},
    {"erts_internal", "check_dirty_process_code", 2, &check_dirty_process_code_2},
};

}  // namespace

std::span<const BifSpec> erts_internal_bifs() { return table; }

}  // namespace beam
