// The VM-wide sections of erl_crash.dump: =scheduler, =memory, =index_table, =port, =ets,
// =node, =loaded_modules/=mod/=fun, =persistent_terms/=literals, =atoms. Field names and
// value forms are erts' (break.c, erl_db.c, io.c, erl_fun.c) as crashdump_viewer reads them.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <tuple>
#include <shared_mutex>

#include "crashdump/dump_sections.hpp"
#include "crashdump/dump_terms.hpp"
#include "dist/dist_entry.hpp"
#include "dist/dist_system.hpp"
#include "ets/ets_registry.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/code_table.hpp"
#include "vm/ext_term.hpp"
#include "vm/memory_stats.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/process_side_memory.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam::crashdump {

namespace {

std::string encoded_base64(Term t) {
    std::vector<uint8_t> bytes;
    if (!encode_external(t, bytes)) return "";
    return base64(bytes.data(), bytes.size());
}

size_t module_bytes(const ModuleCode* mc) {
    return mc->code.size() * sizeof(Word) + mc->literals.used_words() * sizeof(Term);
}

// A hash table's buckets as erts' db_print_hash describes them (the chain statistics are
// ets:info(T, stats)'s), and on the terminal each bucket's objects. Call with t->lock held.
void write_hash_table(DumpOutput& out, const EtsTable* t) {
    size_t buckets = t->bucket_count();
    out.printf("Buckets: %zu\n", buckets);
    std::vector<size_t> lengths(buckets, 0);
    for (size_t i = 0; i < buckets; ++i) t->slot(i, [&](const EtsObject*) { ++lengths[i]; });
    size_t sum = 0, sq_sum = 0, max_len = 0, min_len = buckets ? SIZE_MAX : 0;
    for (size_t len : lengths) {
        sum += len;
        sq_sum += len * len;
        max_len = std::max(max_len, len);
        min_len = std::min(min_len, len);
    }
    // erts computes these in float; so does this, for the same digits.
    float avg = buckets ? float(sum) / float(buckets) : 0.0f;
    double dev = buckets ? std::sqrt((double(sq_sum) - avg * double(sum)) / double(buckets)) : 0.0;
    double expected = buckets ? std::sqrt(avg * (1 - 1.0 / double(buckets))) : 0.0;
    out.printf("Chain Length Avg: %f\nChain Length Max: %zu\nChain Length Min: %zu\n", double(avg), max_len, min_len);
    out.printf("Chain Length Std Dev: %f\nChain Length Expected Std Dev: %f\n", dev, expected);
    // erts counts the objects a fixation keeps (deleted but not yet freed); beamvm frees at once.
    out.printf("Fixed: %s\n", t->fixations.empty() ? "false" : "0");
    if (out.crash_dumping()) return;
    for (size_t i = 0; i < buckets; ++i) {
        if (!lengths[i]) continue;
        std::string line = std::to_string(i) + ": [";
        bool first = true;
        t->slot(i, [&](const EtsObject* o) {
            if (!first) line += ',';
            first = false;
            // A compressed table's objects are written by key only, as erts writes them.
            line += t->compressed ? "key=" + display_string(t->key_of(o)) : display_string(o->term);
        });
        out.write(line + "]\n");
    }
}

}  // namespace

std::string nif_taints(VM& vm) {
    std::string out;
    Namespace& root = vm.root();
    for (Term m : root.loaded_modules()) {
        ModuleCode* mc = root.current(m);
        if (!mc || !mc->nif) continue;
        if (!out.empty()) out += ',';
        out += atom_name(m);
    }
    return out;
}

void write_schedulers(DumpOutput& out, VM& vm, const std::vector<DumpedProcess>& procs, int calling) {
    // beamvm keeps no sleep or run-queue flags worth naming, and its run queues are not
    // read here (the halting schedulers still own them): the lengths are written as 0.
    int n = vm.scheds ? vm.scheds->count() : 1;
    const DumpedProcess* caller = nullptr;
    for (const DumpedProcess& d : procs)
        if (d.caller) caller = &d;
    for (int i = 1; i <= n; ++i) {
        out.printf("=scheduler:%d\n", i);
        out.write("Scheduler Sleep Info Flags: \nScheduler Sleep Info Aux Work: \nCurrent Port: \n");
        out.write("Run Queue Max Length: 0\nRun Queue High Length: 0\nRun Queue Normal Length: 0\n"
                  "Run Queue Low Length: 0\nRun Queue Port Length: 0\nRun Queue Flags: \n");
        if (i != calling || !caller || is_sensitive(caller->p)) {
            out.write("Current Process: \n");
            continue;
        }
        Process* p = caller->p;
        out.printf("Current Process: %s\n", id_text(p->pid).c_str());
        out.write("Current Process State: Running\nCurrent Process Internal State: RUNNING\n");
        out.printf("Current Process Program counter: 0x%016llx (%s)\n",
                   static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p->pc)), code_location(vm, p->pc).c_str());
        out.write("Current Process Limited Stack Trace:\n");
        if (caller->stopped) write_stack(out, vm, p, nullptr);
    }
}

namespace {
// The dump may be written while a persistent_term update holds the store: then it counts 0.
size_t persistent_bytes(VM& vm) {
    std::shared_lock lock(vm.persistent.mutex, std::try_to_lock);
    return lock.owns_lock() ? vm.persistent.memory_bytes() : 0;
}
}  // namespace

void write_memory(DumpOutput& out, VM& vm) {
    // The figures erlang:memory/0 reports (bifs/system_memory.cpp measures them the same way).
    size_t structs = vm.procs.count() * sizeof(Process) + process_side_bytes();
    size_t processes = gc::heap_block_words_allocated() * sizeof(Term) + structs;
    size_t processes_used = std::min(gc::heap_block_words_in_use() * sizeof(Term) + structs, processes);
    AtomTable::Memory atoms = AtomTable::instance().memory();
    size_t binary = BinaryBlob::live_bytes() + nif::resource_bytes();
    size_t code = vm.code_words() * sizeof(Word);
    size_t ets = ets_total_words(vm) * sizeof(Term);
    size_t system = atoms.allocated + binary + code + ets + persistent_bytes(vm);
    out.write("=memory\n");
    out.printf("total: %zu\nprocesses: %zu\nprocesses_used: %zu\nsystem: %zu\n", processes + system, processes,
               processes_used, system);
    out.printf("atom: %zu\natom_used: %zu\nbinary: %zu\ncode: %zu\nets: %zu\n", atoms.allocated, atoms.used, binary,
               code, ets);
}

void write_tables_summary(DumpOutput& out, VM& vm) {
    // erts' index tables grow in steps of their own; beamvm's atom and module tables are
    // hash maps, so "size" is written as the entries. No =hash_table sections: beamvm's
    // hash tables have no chain depths to report.
    size_t atoms = AtomTable::instance().size();
    out.printf("=index_table:atom_tab\nsize: %zu\nlimit: %zu\nentries: %zu\n", atoms, size_t(MAX_ATOMS), atoms);
    size_t mods = vm.root().loaded_modules().size();
    out.printf("=index_table:module_code\nsize: %zu\nlimit: 65536\nentries: %zu\n", mods, mods);
}

void write_ports(DumpOutput& out, VM& vm) {
    for (const std::shared_ptr<Port>& port : ports_of(vm).all_ports()) {
        std::lock_guard lock(port->lock);
        if (port->closed) continue;
        out.printf("=port:%s\n", id_text(port->id).c_str());
        out.write("State: CONNECTED\n");
        out.printf("Slot: %llu\n", static_cast<unsigned long long>(port->number));
        out.printf("Connected: %s\n", id_text(port->owner).c_str());
        if (!port->links.empty()) {
            std::string links = "Links: ";
            for (size_t i = 0; i < port->links.size(); ++i) links += (i ? ", " : "") + id_text(port->links[i]);
            out.write(links + "\n");
        }
        Term name = vm.procs.port_name(port->id);
        if (is_atom(name)) out.printf("Registered as: %s\n", std::string(atom_name(name)).c_str());
        // A driver port (tty_sl, the inet drivers) has a driver attached whatever its settings
        // say; an fd port's name is "In/Out", the descriptors it was opened with, as erts prints.
        if (port->driver || port->settings.kind == PortSettings::Kind::Driver)
            out.printf("Port controls linked-in driver: %s\n", port->name.c_str());
        else if (port->settings.kind == PortSettings::Kind::Fd)
            out.printf("Port is UNIX fd not opened by emulator: %s\n", port->name.c_str());
        else
            out.printf("Port controls external process: %s\n", port->name.c_str());
        out.printf("Input: %llu\nOutput: %llu\nQueue: %zu\n", static_cast<unsigned long long>(port->bytes_in),
                   static_cast<unsigned long long>(port->bytes_out), port->pending.size());
    }
}

void write_ets(DumpOutput& out, VM& vm) {
    static constexpr const char* types[] = {"set", "ordered_set", "bag", "duplicate_bag"};
    static constexpr const char* access[] = {"public", "protected", "private"};
    LiteralArea scratch;
    // Oldest first, as erts lists them: a table's reference words grow with each new table
    // (the registry itself keeps no order).
    std::vector<EtsTable*> tables = ets_all_tables(vm);
    std::sort(tables.begin(), tables.end(), [](const EtsTable* a, const EtsTable* b) {
        return std::tie(a->ref_ids[2], a->ref_ids[1], a->ref_ids[0]) < std::tie(b->ref_ids[2], b->ref_ids[1], b->ref_ids[0]);
    });
    for (EtsTable* t : tables) {
        {
            std::shared_lock lock(t->lock);
            if (t->alive.load(std::memory_order_acquire)) {
                Term owner{t->owner.load()};
                out.printf("=ets:%s\n", is_local_pid(owner) ? id_text(owner).c_str() : "[]");
                out.printf("Slot: %llu\n", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(t)));
                out.printf("Table: %s\n", display_string(ets_table_term(scratch, t)).c_str());
                out.printf("Name: %s\n", std::string(atom_name(t->name)).c_str());
                if (t->type == EtsType::OrderedSet) out.printf("Ordered set (AVL tree), Elements: %zu\n", t->size());
                else write_hash_table(out, t);
                out.printf("Objects: %zu\nWords: %zu\n", t->size(), t->memory_words());
                out.printf("Type: %s\nProtection: %s\n", types[int(t->type)], access[int(t->access)]);
                out.printf("Compressed: %s\nWrite Concurrency: %s\nRead Concurrency: %s\n",
                           t->compressed ? "true" : "false", t->write_concurrency ? "true" : "false",
                           t->read_concurrency ? "true" : "false");
            }
        }
        t->release();
    }
}

void write_node(DumpOutput& out, VM& vm) {
    out.printf("=node:%s\n", display_string(vm.node.name()).c_str());  // erts' %T: 'nonode@nohost'
    if (!vm.node.is_alive()) {
        out.write("=no_distribution\n");
        return;
    }
    // erts' distribution_info: each connection that is up, visible ones first. erts also
    // lists the links and monitors across each one and the nodes not connected; beamvm's
    // dist/ keeps those per connection without a printer: not listed.
    if (!vm.remote.load(std::memory_order_acquire)) return;  // no connection was ever made
    dist::DistSystem& dist = dist::dist_of(vm);
    std::vector<std::pair<Term, Term>> carriers = dist.carriers();
    for (bool visible : {true, false}) {
        for (const std::shared_ptr<dist::DistEntry>& e : dist.connected(visible, !visible)) {
            uint32_t conn;
            {
                std::lock_guard lock(e->mu);
                conn = e->conn_id;
            }
            out.printf("=%s:%u\nName: %s\n", visible ? "visible_node" : "hidden_node", conn,
                       display_string(e->node).c_str());
            for (const auto& [node, controller] : carriers)
                if (node == e->node) out.printf("Controller: %s\n", display_string(controller).c_str());
        }
    }
}

void write_loaded(DumpOutput& out, VM& vm) {
    Namespace& root = vm.root();
    std::vector<Term> mods = root.loaded_modules();
    // erts lists modules in its module table's order (the order of first load), which beamvm
    // does not keep: by name.
    std::sort(mods.begin(), mods.end(), [](Term a, Term b) { return atom_name(a) < atom_name(b); });
    size_t current = 0, old = 0;
    for (Term m : mods) {
        if (ModuleCode* mc = root.current(m)) current += module_bytes(mc);
        if (ModuleCode* mc = root.old_version(m)) old += module_bytes(mc);
    }
    out.printf("Current code: %zu\nOld code: %zu\n", current, old);
    for (Term m : mods) {
        ModuleCode* mc = root.current(m);
        ModuleCode* o = root.old_version(m);
        if (!out.crash_dumping()) {  // the terminal: one line each, as erts keeps it brief there
            std::string line = std::string(atom_name(m)) + " " + std::to_string(mc ? module_bytes(mc) : 0);
            if (o) line += " (" + std::to_string(module_bytes(o)) + " old)";
            out.write(line + "\n");
            continue;
        }
        out.printf("=mod:%s\n", std::string(atom_name(m)).c_str());
        if (mc) {
            out.printf("Current size: %zu\n", module_bytes(mc));
            out.printf("Current attributes: %s\n", encoded_base64(mc->attributes).c_str());
            out.printf("Current compilation info: %s\n", encoded_base64(mc->compile_info).c_str());
        }
        if (o) {
            out.printf("Old size: %zu\n", module_bytes(o));
            out.printf("Old attributes: %s\n", encoded_base64(o->attributes).c_str());
            out.printf("Old compilation info: %s\n", encoded_base64(o->compile_info).c_str());
        }
    }
}

void write_modules(DumpOutput& out, VM& vm) {
    Namespace& root = vm.root();
    std::vector<Term> mods = root.loaded_modules();
    out.write("=loaded_modules\n");
    write_loaded(out, vm);
    // erts counts each fun entry's live funs (Refc); beamvm keeps no such count: no Refc line.
    for (Term m : mods) {
        ModuleCode* mc = root.current(m);
        if (!mc) continue;
        for (const auto& fe : mc->funs) {
            out.printf("=fun\nModule: %s\nUniq: %u\nIndex: %u\nAddress: 0x%016llx\n",
                       std::string(atom_name(mc->name)).c_str(), fe->old_uniq, fe->index,
                       static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(fe->address)));
        }
    }
}

void write_persistent_terms(DumpOutput& out, VM& vm) {
    std::shared_lock lock(vm.persistent.mutex);
    out.write("=persistent_terms\n");
    HeapWriter literals(out);
    for (auto& [hash, e] : vm.persistent.items) {
        out.write(element_text(e.key) + "|" + element_text(e.value) + "\n");
        literals.add_root(e.key);
        literals.add_root(e.value);
    }
    out.write("=literals\n");
    literals.write();
}

void write_atoms(DumpOutput& out) {
    out.write("=atoms\n");
    AtomTable& table = AtomTable::instance();
    for (size_t i = table.size(); i-- > 0;) out.write(atom_text_quoted(make_atom(uint32_t(i))) + "\n");
}

}  // namespace beam::crashdump
