// ets natives about tables as a whole: new, delete/1, info/1,2, rename, whereis, setopts,
// give_away, safe_fixtable, internal_request_all (ets:all/0); and the list of every ets
// native for bifs/bif_registry.cpp.
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "ets/ets_access.hpp"
#include "ets/ets_natives.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam::ets {

namespace {

Term type_atom(EtsType t) {
    switch (t) {
    case EtsType::Set: return atom("set");
    case EtsType::OrderedSet: return atom("ordered_set");
    case EtsType::Bag: return atom("bag");
    default: return atom("duplicate_bag");
    }
}

Term access_atom(EtsAccess a) {
    return a == EtsAccess::Public ? atom("public") : a == EtsAccess::Protected ? atom("protected") : atom("private");
}

bool is_live_process(VM& vm, Term pid) {
    if (!is_local_pid(pid)) return false;
    Process* q = vm.procs.lookup(pid);
    if (!q) return false;
    bool alive = !(q->sched.state.load() & run_state::EXITED);
    ProcessTable::release(q);
    return alive;
}

bool set_heir(EtsTable* t, Term opt) {
    if (tuple_arity(opt) == 2 && tuple_elem(opt, 1) == atom("none")) {
        ets_object_free(t->heir_data);
        t->heir_data = nullptr;
        t->heir = atom("none");
        return true;
    }
    if (tuple_arity(opt) != 3 || !is_local_pid(tuple_elem(opt, 1))) return false;
    ets_object_free(t->heir_data);
    LiteralArea scratch;
    t->heir_data = ets_object_new(make_tuple(scratch, {tuple_elem(opt, 2)}));
    t->heir = tuple_elem(opt, 1);
    return true;
}

Term new_2(Process* p, const Term* a) {
    std::vector<Term> opts;
    if (!is_atom(a[0]) || !list_elements(a[1], opts)) return p->badarg();
    EtsType type = EtsType::Set;
    EtsAccess access = EtsAccess::Protected;
    uint32_t keypos = 1;
    // As erts' ets:new/2 (erl_db.c): write_concurrency and decentralized_counters depend on
    // the order of the options (ordered_set turns counters on, a later {write_concurrency,
    // true} on a table not yet ordered_set turns them off) and an explicit
    // decentralized_counters option wins.
    bool named = false, rc = false, wc = false, wc_auto = false, dc = false, compressed = false;
    int dc_option = -1;
    Term heir = NON_VALUE;
    for (Term o : opts) {
        if (o == atom("set")) type = EtsType::Set;
        else if (o == atom("ordered_set")) type = EtsType::OrderedSet, dc = true;
        else if (o == atom("bag")) type = EtsType::Bag;
        else if (o == atom("duplicate_bag")) type = EtsType::DuplicateBag;
        else if (o == atom("public")) access = EtsAccess::Public;
        else if (o == atom("protected")) access = EtsAccess::Protected;
        else if (o == atom("private")) access = EtsAccess::Private;
        else if (o == atom("named_table")) named = true;
        else if (o == atom("compressed")) compressed = true;
        else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_elem(o, 0) == atom("keypos")) {
            Term k = tuple_elem(o, 1);
            if (!is_small(k) || small_value(k) < 1 || small_value(k) > 0xFFFFFF) return p->badarg();
            keypos = uint32_t(small_value(k));
        } else if (is_tuple(o) && tuple_arity(o) == 2 && is_boolean_atom(tuple_elem(o, 1)) &&
                   (tuple_elem(o, 0) == atom("read_concurrency") || tuple_elem(o, 0) == atom("write_concurrency") ||
                    tuple_elem(o, 0) == atom("decentralized_counters"))) {
            bool v = tuple_elem(o, 1) == am::true_;
            if (tuple_elem(o, 0) == atom("read_concurrency")) {
                rc = v;
            } else if (tuple_elem(o, 0) == atom("write_concurrency")) {
                wc = v;
                wc_auto = false;
                if (v && type != EtsType::OrderedSet) dc = false;
            } else {
                dc_option = v;
            }
        } else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_elem(o, 0) == atom("write_concurrency") &&
                   tuple_elem(o, 1) == atom("auto")) {
            wc = wc_auto = dc = true;
        } else if (is_tuple(o) && (tuple_arity(o) == 2 || tuple_arity(o) == 3) && tuple_elem(o, 0) == atom("heir")) {
            if (!(tuple_arity(o) == 2 ? tuple_elem(o, 1) == atom("none") : is_local_pid(tuple_elem(o, 1))))
                return p->badarg();
            heir = o;
        } else {
            return p->badarg();
        }
    }
    auto* t = new EtsTable(type, keypos);
    t->access = access;
    t->named = named;
    t->name = a[0];
    if (dc_option >= 0) dc = dc_option;
    // erts takes no fine-grained locks with one scheduler, nor on private tables, and reports
    // the options accordingly.
    bool fine = wc && access != EtsAccess::Private && p->vm->scheds && p->vm->scheds->count() > 1;
    t->read_concurrency = rc && access != EtsAccess::Private;
    t->write_concurrency = fine;
    t->write_concurrency_auto = fine && wc_auto;
    t->decentralized_counters = fine && dc;
    // As erts' fine-grained locking for write_concurrency: a lock per stripe of buckets.
    // (ordered_set keeps its one lock: erts' contention-adapting tree is not here.)
    if (fine && type != EtsType::OrderedSet) t->lock.stripe();
    // As erts' reader groups: readers on different schedulers write no common cache line.
    if (t->read_concurrency && p->vm->scheds && p->vm->scheds->count() > 1) t->lock.reader_groups();
    t->compressed = compressed;
    t->owner.store(p->pid.raw);
    t->heir = atom("none");
    if (heir != NON_VALUE) set_heir(t, heir);
    Term ref = make_magic_ref(*p, t);  // the term holds the object's first count
    for (int i = 0; i < 3; i++) t->ref_ids[i] = boxed_ptr(ref)[1 + i].raw;
    if (!ets_register(*p->vm, t)) return fail(p, "already_exists");  // the name is taken; `ref` frees it when collected
    return named ? a[0] : ref;
}

Term delete_1(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (t->owner.load() != p->pid.raw && t->access != EtsAccess::Public) return p->badarg();
    ets_unregister_and_clear(*p->vm, t.t);
    return am::true_;
}

Term info_item(Process* p, EtsTable* t, Term item) {
    if (item == atom("id")) return ets_table_ref(*p, t);
    if (item == atom("decentralized_counters")) return make_bool(t->decentralized_counters);
    if (item == atom("read_concurrency")) return make_bool(t->read_concurrency);
    if (item == atom("write_concurrency")) return t->write_concurrency_auto ? atom("auto") : make_bool(t->write_concurrency);
    if (item == atom("compressed")) return make_bool(t->compressed);
    if (item == atom("memory")) return make_small(SWord(t->memory_words()));
    if (item == atom("owner")) return Term{t->owner.load()};
    if (item == atom("heir")) return t->heir;
    if (item == atom("name")) return t->name;
    if (item == atom("size")) return make_small(SWord(t->size()));
    if (item == atom("node")) return this_node(p).name();
    if (item == atom("named_table")) return make_bool(t->named);
    if (item == atom("type")) return type_atom(t->type);
    if (item == atom("keypos")) return make_small(t->keypos);
    if (item == atom("protection")) return access_atom(t->access);
    if (item == atom("fixed")) return make_bool(!t->fixations.empty());
    if (item == atom("safe_fixed") || item == atom("safe_fixed_monotonic_time")) {
        if (t->fixations.empty() || !t->fix_time) return am::false_;
        std::vector<Term> fs;
        for (auto& [pid, n] : t->fixations) fs.push_back(make_tuple(*p, {Term{pid}, make_small(SWord(n))}));
        Term when = copy_term(tuple_elem(t->fix_time->term, item == atom("safe_fixed") ? 1 : 0), *p);
        return make_tuple(*p, {when, make_list_from(*p, fs.data(), fs.size())});
    }
    if (item == atom("stats")) {
        return make_tuple(*p, {make_small(SWord(t->bucket_count())), make_float(*p, 0.0), make_float(*p, 0.0),
                               make_float(*p, 0.0), make_small(0), make_small(0), make_small(0), make_small(1)});
    }
    if (item == atom("binary")) return NIL;
    return NON_VALUE;
}

Term info_1(Process* p, const Term* a) {
    if (!is_atom(a[0]) && !is_boxed_sub(a[0], Sub::Ref)) return p->badarg();
    TableRef t(ets_resolve(*p->vm, a[0]));
    if (!t) return am::undefined;
    ReadLocked l(t.t);
    if (!l.ok) return am::undefined;
    static const char* items[] = {"id",    "decentralized_counters", "read_concurrency", "write_concurrency",
                                  "compressed", "memory", "owner", "heir", "name", "size", "node",
                                  "named_table", "type", "keypos", "protection"};
    std::vector<Term> out;
    for (const char* i : items) out.push_back(make_tuple(*p, {atom(i), info_item(p, t.t, atom(i))}));
    return make_list_from(*p, out.data(), out.size());
}

Term info_2(Process* p, const Term* a) {
    if (!is_atom(a[0]) && !is_boxed_sub(a[0], Sub::Ref)) return p->badarg();
    if (!is_atom(a[1])) return p->badarg();
    TableRef t(ets_resolve(*p->vm, a[0]));
    if (!t) return am::undefined;
    ReadLocked l(t.t);
    if (!l.ok) return am::undefined;
    Term v = info_item(p, t.t, a[1]);
    return v == NON_VALUE ? p->badarg() : v;
}

Term whereis_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    TableRef t(ets_resolve(*p->vm, a[0]));
    if (!t || !t->alive.load()) return am::undefined;
    return ets_table_ref(*p, t.t);
}

Term rename_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (!is_atom(a[1]) || t->owner.load() != p->pid.raw) return p->badarg();
    if (!ets_rename(*p->vm, t.t, a[1])) return p->badarg();
    return a[1];
}

Term give_away_3(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Info));
    if (!t) return no_table(p);
    if (t->owner.load() != p->pid.raw) return fail(p, "not_owner");
    if (a[1] == p->pid) return fail(p, "owner");
    if (!ets_set_owner(*p->vm, t.t, a[1])) return p->badarg();
    Term msg = make_tuple(*p, {atom("ETS-TRANSFER"), ets_table_term(*p, t.t), p->pid, a[2]});
    post_message(*p->vm, a[1], msg);
    return am::true_;
}

Term setopts_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Info));
    if (!t) return no_table(p);
    if (t->owner.load() != p->pid.raw) return p->badarg();
    std::vector<Term> opts;
    if (is_tuple(a[1])) opts.push_back(a[1]);
    else if (!list_elements(a[1], opts)) return p->badarg();
    WriteLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    for (Term o : opts) {
        if (!is_tuple(o) || tuple_arity(o) < 2) return p->badarg();
        if (tuple_elem(o, 0) == atom("heir")) {
            if (tuple_arity(o) == 3 && !is_live_process(*p->vm, tuple_elem(o, 1))) return p->badarg();
            if (!set_heir(t.t, o)) return p->badarg();
        } else if (tuple_elem(o, 0) == atom("protection") && tuple_arity(o) == 2) {
            Term v = tuple_elem(o, 1);
            if (v == atom("public")) t->access = EtsAccess::Public;
            else if (v == atom("protected")) t->access = EtsAccess::Protected;
            else if (v == atom("private")) t->access = EtsAccess::Private;
            else return p->badarg();
        } else {
            return p->badarg();
        }
    }
    return am::true_;
}

Term safe_fixtable_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    if (!is_boolean_atom(a[1])) return p->badarg();
    WriteLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    auto it = std::find_if(t->fixations.begin(), t->fixations.end(), [&](auto& f) { return f.first == p->pid.raw; });
    if (a[1] == am::true_) {
        if (t->fixations.empty()) {
            // erlang:monotonic_time/0 and erlang:timestamp/0 now, as the natives give them
            const BifSpec* mono = find_bif(atom("erlang"), atom("monotonic_time"), 0);
            const BifSpec* stamp = find_bif(atom("erlang"), atom("timestamp"), 0);
            if (mono && stamp) {
                Term m = mono->fn(p, nullptr), s = stamp->fn(p, nullptr);
                ets_object_free(t->fix_time);
                t->fix_time = ets_object_new(make_tuple(*p, {m, s}));
            }
        }
        if (it == t->fixations.end()) {
            t->fixations.emplace_back(p->pid.raw, 1);
            ets_note_fixer(*p->vm, t.t, p->pid);  // registry lock inside the table's: never the other way
        }
        else it->second++;
    } else if (it != t->fixations.end() && --it->second == 0) {
        t->fixations.erase(it);
    }
    return am::true_;
}

// ets:all/0 waits for one answer per scheduler: the first carries every table.
Term internal_request_all_0(Process* p, const Term*) {
    Term ref = make_new_ref(*p);
    std::vector<Term> all;
    for (EtsTable* t : ets_all_tables(*p->vm)) {
        if (t->alive.load()) all.push_back(ets_table_term(*p, t));
        t->release();
    }
    size_t n = p->vm->scheds ? p->vm->scheds->count() : 1;
    for (size_t i = 0; i < n; i++) {
        Term list = i == 0 ? make_list_from(*p, all.data(), all.size()) : NIL;
        post_message(*p->vm, p->pid, make_tuple(*p, {ref, list}));
    }
    return ref;
}

const BifSpec table[] = {
    {"ets", "new", 2, &new_2},
    {"ets", "delete", 1, &delete_1},
    {"ets", "info", 1, &info_1},
    {"ets", "info", 2, &info_2},
    {"ets", "whereis", 1, &whereis_1},
    {"ets", "rename", 2, &rename_2},
    {"ets", "give_away", 3, &give_away_3},
    {"ets", "setopts", 2, &setopts_2},
    {"ets", "safe_fixtable", 2, &safe_fixtable_2},
    {"ets", "internal_request_all", 0, &internal_request_all_0},
};

}  // namespace

std::span<const BifSpec> admin_bifs() { return table; }

}  // namespace beam::ets

namespace beam {

std::span<const BifSpec> ets_bifs() {
    static const std::vector<BifSpec> all = [] {
        std::vector<BifSpec> v;
        for (auto part : {ets::op_bifs(), ets::admin_bifs(), ets::select_bifs()}) v.insert(v.end(), part.begin(), part.end());
        return v;
    }();
    return all;
}

}  // namespace beam
