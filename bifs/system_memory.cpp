// erlang:memory/0,1: OTP's nine figures, in bytes, from beamvm's own accounting. (OTP's
// erlang.erl computes them from its allocators' statistics; beamvm answers natively.)
//
//   processes       process heap blocks that exist (held by processes or kept in the
//                   schedulers' block caches for reuse) + one Process structure per process
//                   + what processes allocate beside it when used (mailbox buffers, receive
//                   marker tables: vm/process_side_memory.hpp)
//   processes_used  the heap blocks processes hold + their Process structures; a block counts
//                   whole, free space inside a heap included. Heap fragments (allocations
//                   made while a heap was full, merged at the next collection) are not counted.
//   atom, atom_used the atom table: its entry blocks, names and index; the part its atoms use
//   binary          off-heap (reference-counted) binaries, headers included, and NIF resource
//                   objects (erts allocates them as magic binaries)
//   code            loaded code and literals of every module version, in every namespace
//   ets             0: beamvm has no ETS tables yet
//   system          atom + binary + code + ets + persistent terms
//   total           processes + system
// Each count is read without stopping anything, so figures of one call may be a few
// allocations apart, as OTP's are.
#include <shared_mutex>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "ets/ets_registry.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/memory_stats.hpp"
#include "vm/process_side_memory.hpp"
#include "vm/vm.hpp"

namespace beam {
namespace {

constexpr size_t WORD_BYTES = sizeof(Term);

struct Figures {
    size_t total, processes, processes_used, system, atom, atom_used, binary, code, ets;
};

Figures measure(Process* p) {
    VM* vm = p->vm;
    Figures f{};
    size_t structs = vm->procs.count() * sizeof(Process) + process_side_bytes();
    f.processes = gc::heap_block_words_allocated() * WORD_BYTES + structs;
    f.processes_used = std::min(gc::heap_block_words_in_use() * WORD_BYTES + structs, f.processes);
    AtomTable::Memory atoms = AtomTable::instance().memory();
    f.atom = atoms.allocated;
    f.atom_used = atoms.used;
    f.binary = BinaryBlob::live_bytes() + nif::resource_bytes();
    f.code = vm->code_words() * WORD_BYTES;
    f.ets = ets_total_words(*p->vm) * sizeof(Term);
    size_t persistent;
    {
        std::shared_lock lock(vm->persistent.mutex);
        persistent = vm->persistent.memory_bytes();
    }
    f.system = f.atom + f.binary + f.code + f.ets + persistent;
    f.total = f.processes + f.system;
    return f;
}

// The figure named `type`, or NON_VALUE for a name that is not one of OTP's.
Term figure(Process* p, const Figures& f, Term type) {
    static const std::pair<const char*, size_t Figures::*> names[] = {
        {"total", &Figures::total}, {"processes", &Figures::processes},
        {"processes_used", &Figures::processes_used}, {"system", &Figures::system},
        {"atom", &Figures::atom}, {"atom_used", &Figures::atom_used},
        {"binary", &Figures::binary}, {"code", &Figures::code}, {"ets", &Figures::ets},
    };
    for (auto [name, field] : names)
        if (type == atom(name)) return make_integer_u(*p, f.*field);
    return NON_VALUE;
}

Term pair(Process* p, const Figures& f, Term type) { return make_tuple(*p, {type, figure(p, f, type)}); }

Term memory_0(Process* p, const Term*) {
    Figures f = measure(p);
    std::vector<Term> items;
    for (const char* name : {"total", "processes", "processes_used", "system", "atom", "atom_used", "binary",
                             "code", "ets"})
        items.push_back(pair(p, f, atom(name)));
    return make_list_from(*p, items.data(), items.size());
}

// memory(Type) or memory([Type]): a name that is not a figure is badarg; a list with an
// improper tail fails as erlang.erl's memory_1/2 does on it, with function_clause.
Term memory_1(Process* p, const Term* a) {
    Figures f = measure(p);
    if (is_atom(a[0])) {
        Term v = figure(p, f, a[0]);
        return is_value(v) ? v : p->badarg();
    }
    if (!is_list(a[0]) && !is_nil(a[0])) return p->badarg();
    std::vector<Term> items;
    Term l = a[0];
    for (; is_list(l); l = tail(l)) {
        Term v = figure(p, f, head(l));
        if (is_non_value(v)) return p->badarg();
        items.push_back(make_tuple(*p, {head(l), v}));
    }
    if (!is_nil(l)) {
        // Its frame: erlang:memory_1(Tail, #memory{}), the record holding the figures.
        Term record = make_tuple(*p, {atom("memory"), figure(p, f, atom("total")), figure(p, f, atom("processes")),
                                      figure(p, f, atom("processes_used")), figure(p, f, atom("system")),
                                      figure(p, f, atom("atom")), figure(p, f, atom("atom_used")),
                                      figure(p, f, atom("binary")), figure(p, f, atom("code")), figure(p, f, atom("ets"))});
        Term args[2] = {l, record};
        p->error(am::function_clause);
        p->ftop = make_tuple(*p, {am::erlang, atom("memory_1"), make_list_from(*p, args, 2), NIL});
        return NON_VALUE;
    }
    return make_list_from(*p, items.data(), items.size());
}

constexpr BifSpec table[] = {
    {"erlang", "memory", 0, &memory_0},
    {"erlang", "memory", 1, &memory_1},
};

}  // namespace

std::span<const BifSpec> memory_bifs() { return table; }

}  // namespace beam
