// ets natives that run match specifications over a table: match/1,2,3, match_object/1,2,3,
// select/1,2,3, select_reverse/1,2,3, select_count/2, select_replace/2 and the native of
// select_delete/2 (docs/ets.md). A spec is compiled once per call (vm/match_spec.hpp); when
// every clause's head binds the key to a constant, only those keys are looked up instead of
// scanning the table. Results are copied to the caller while the table's lock is held, since
// a spec's result may point into the stored object.
#include <algorithm>
#include <memory>
#include <vector>

#include "bifs/bif_util.hpp"
#include "ets/ets_access.hpp"
#include "ets/ets_natives.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/match_spec.hpp"
#include "vm/term_order.hpp"

namespace beam::ets {

namespace {

Term end_of_table() {
    static const Term a = atom("$end_of_table");
    return a;
}
Term cont_tag() {
    static const Term a = atom("$beamvm_ets_continuation");
    return a;
}

// The constant keys every clause's head is limited to, or false when some clause may match
// any key.
bool bound_keys(const EtsTable* t, const MatchSpec& ms, std::vector<Term>& keys) {
    for (const MsClause& c : ms.clauses) {
        if (c.head.kind != MsNode::Tuple || c.head.kids.size() < t->keypos) return false;
        const MsNode& k = c.head.kids[t->keypos - 1];
        if (k.kind != MsNode::Exact) return false;
        keys.push_back(k.term);
    }
    if (t->type == EtsType::OrderedSet) {
        std::sort(keys.begin(), keys.end(), [](Term a, Term b) { return compare_terms(a, b) < 0; });
        keys.erase(std::unique(keys.begin(), keys.end(), [](Term a, Term b) { return compare_terms(a, b) == 0; }),
                   keys.end());
    } else {
        std::vector<Term> uniq;
        for (Term k : keys)
            if (std::none_of(uniq.begin(), uniq.end(), [&](Term u) { return eq_exact(u, k); })) uniq.push_back(k);
        keys.swap(uniq);
    }
    return true;
}

// Every object the spec may match, in table order (reverse for ordered_set backwards).
void candidates(const EtsTable* t, const MatchSpec& ms, bool reverse, const std::function<bool(const EtsObject*)>& f) {
    std::vector<Term> keys;
    if (bound_keys(t, ms, keys)) {
        // hash tables give the results of later clauses' keys first, as OTP does
        if (reverse != (t->type != EtsType::OrderedSet)) std::reverse(keys.begin(), keys.end());
        bool go = true;
        for (Term k : keys) {
            if (!go) return;
            t->lookup(k, [&](const EtsObject* o) { go = go && f(o); });
        }
        return;
    }
    t->walk(reverse, f);
}

std::unique_ptr<MatchSpec> compile(Term spec) {
    auto ms = compile_match_spec(spec, MsDialect::Table);
    return ms.ok() ? std::move(ms.value()) : nullptr;
}

// [{Pattern, [], [Body]}]
Term pattern_spec(Process* p, Term pattern, Term body) {
    Term clause = make_tuple(*p, {pattern, NIL, cons_at(p->alloc(2), body, NIL)});
    return cons_at(p->alloc(2), clause, NIL);
}
Term all_vars() {
    static const Term a = atom("$$");
    return a;
}
Term whole() {
    static const Term a = atom("$_");
    return a;
}

// A match's result on the caller's heap: the whole object ('$_') by a block copy.
Term copy_result(Process* p, const EtsObject* o, Term result) {
    return result.raw == o->term.raw ? ets_copy_out(o, *p) : copy_term(result, *p);
}

// select/2 and its kin, all results at once.
Term select_all(Process* p, Term tab, Term spec, bool reverse) {
    TableRef t(table_for(p, tab, Need::Read));
    if (!t) return no_table(p);
    auto ms = compile(spec);
    if (!ms) return p->badarg();
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    std::vector<Term> out;
    candidates(t.t, *ms, reverse, [&](const EtsObject* o) {
        MsOutcome r = run_match_spec(*ms, p, o->term);
        if (r.matched) out.push_back(copy_result(p, o, r.result));
        return true;
    });
    if (reverse && t->type != EtsType::OrderedSet) std::reverse(out.begin(), out.end());
    return make_list_from(*p, out.data(), out.size());
}

// One chunk of at most `limit` results, from position `pos` (NON_VALUE: the start):
// {Results, Continuation} or '$end_of_table'.
Term select_chunk(Process* p, Term tab, Term spec, size_t limit, bool reverse, Term pos) {
    TableRef t(table_for(p, tab, Need::Read));
    if (!t) return no_table(p);
    auto ms = compile(spec);
    if (!ms) return p->badarg();
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    std::vector<Term> out;
    Term next = NON_VALUE;  // where the next chunk starts; NON_VALUE: at the end
    if (t->type == EtsType::OrderedSet) {
        auto visit = [&](const EtsObject* o) {
            MsOutcome r = run_match_spec(*ms, p, o->term);
            if (r.matched) out.push_back(copy_result(p, o, r.result));
            if (out.size() >= limit) {
                next = copy_term(t->key_of(o), *p);
                return false;
            }
            return true;
        };
        if (pos == NON_VALUE) t->walk(reverse, visit);
        else t->walk_after(pos, reverse, visit);
    } else {
        size_t from = pos == NON_VALUE ? 0 : size_t(small_value(pos));
        int64_t nb = t->walk_buckets(from, [&](const EtsObject* o) {
            MsOutcome r = run_match_spec(*ms, p, o->term);
            if (r.matched) out.push_back(copy_result(p, o, r.result));
            return out.size() < limit;
        });
        if (nb >= 0) next = make_small(nb);
    }
    if (out.empty()) return end_of_table();
    if (reverse && t->type != EtsType::OrderedSet) std::reverse(out.begin(), out.end());
    Term results = make_list_from(*p, out.data(), out.size());
    Term cont = next == NON_VALUE ? end_of_table()
                                  : make_tuple(*p, {cont_tag(), tab, next, make_small(SWord(limit)), spec,
                                                    make_bool(reverse)});
    return make_tuple(*p, {results, cont});
}

bool limit_of(Term n, size_t& out) {
    if (!is_small(n) || small_value(n) < 1) return false;
    out = size_t(small_value(n));
    return true;
}

Term select_continue(Process* p, Term cont) {
    if (cont == end_of_table()) return end_of_table();
    if (!is_tuple(cont) || tuple_arity(cont) != 6 || tuple_elem(cont, 0) != cont_tag()) return p->badarg();
    size_t limit;
    if (!limit_of(tuple_elem(cont, 3), limit)) return p->badarg();
    return select_chunk(p, tuple_elem(cont, 1), tuple_elem(cont, 4), limit, tuple_elem(cont, 5) == am::true_,
                        tuple_elem(cont, 2));
}

Term select_2(Process* p, const Term* a) { return select_all(p, a[0], a[1], false); }
Term select_reverse_2(Process* p, const Term* a) { return select_all(p, a[0], a[1], true); }
Term select_3(Process* p, const Term* a) {
    size_t n;
    if (!limit_of(a[2], n)) return p->badarg();
    return select_chunk(p, a[0], a[1], n, false, NON_VALUE);
}
Term select_reverse_3(Process* p, const Term* a) {
    size_t n;
    if (!limit_of(a[2], n)) return p->badarg();
    return select_chunk(p, a[0], a[1], n, true, NON_VALUE);
}
Term select_1(Process* p, const Term* a) { return select_continue(p, a[0]); }

Term match_2(Process* p, const Term* a) { return select_all(p, a[0], pattern_spec(p, a[1], all_vars()), false); }
Term match_object_2(Process* p, const Term* a) { return select_all(p, a[0], pattern_spec(p, a[1], whole()), false); }
Term match_3(Process* p, const Term* a) {
    size_t n;
    if (!limit_of(a[2], n)) return p->badarg();
    return select_chunk(p, a[0], pattern_spec(p, a[1], all_vars()), n, false, NON_VALUE);
}
Term match_object_3(Process* p, const Term* a) {
    size_t n;
    if (!limit_of(a[2], n)) return p->badarg();
    return select_chunk(p, a[0], pattern_spec(p, a[1], whole()), n, false, NON_VALUE);
}

Term select_count_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    auto ms = compile(a[1]);
    if (!ms) return p->badarg();
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    size_t n = 0;
    candidates(t.t, *ms, false, [&](const EtsObject* o) {
        MsOutcome r = run_match_spec(*ms, p, o->term);
        if (r.matched && r.result == am::true_) n++;
        return true;
    });
    return make_small(SWord(n));
}

Term internal_select_delete_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    auto ms = compile(a[1]);
    if (!ms) return p->badarg();
    WriteLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    std::vector<const EtsObject*> doomed;
    candidates(t.t, *ms, false, [&](const EtsObject* o) {
        MsOutcome r = run_match_spec(*ms, p, o->term);
        if (r.matched && r.result == am::true_) doomed.push_back(o);
        return true;
    });
    for (const EtsObject* o : doomed) t->erase_exact(o);
    return make_small(SWord(doomed.size()));
}

Term select_replace_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (t->type != EtsType::Set && t->type != EtsType::OrderedSet) return fail(p, "table_type");
    auto ms = compile(a[1]);
    if (!ms) return p->badarg();
    WriteLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    std::vector<EtsObject*> fresh;
    bool bad = false;
    candidates(t.t, *ms, false, [&](const EtsObject* o) {
        MsOutcome r = run_match_spec(*ms, p, o->term);
        if (!r.matched) return true;
        // a replacement must keep the object's key (OTP refuses the whole call)
        if (!is_object_for(t.t, r.result) || !eq_exact(tuple_elem(r.result, t->keypos - 1), t->key_of(o))) {
            bad = true;
            return false;
        }
        fresh.push_back(ets_object_new(r.result));
        return true;
    });
    if (bad) {
        for (EtsObject* o : fresh) ets_object_free(o);
        return p->badarg();
    }
    for (EtsObject* o : fresh) t->insert(o);
    return make_small(SWord(fresh.size()));
}

const BifSpec table[] = {
    {"ets", "select", 1, &select_1},
    {"ets", "select", 2, &select_2},
    {"ets", "select", 3, &select_3},
    {"ets", "select_reverse", 1, &select_1},
    {"ets", "select_reverse", 2, &select_reverse_2},
    {"ets", "select_reverse", 3, &select_reverse_3},
    {"ets", "match", 1, &select_1},
    {"ets", "match", 2, &match_2},
    {"ets", "match", 3, &match_3},
    {"ets", "match_object", 1, &select_1},
    {"ets", "match_object", 2, &match_object_2},
    {"ets", "match_object", 3, &match_object_3},
    {"ets", "select_count", 2, &select_count_2},
    {"ets", "internal_select_delete", 2, &internal_select_delete_2},
    {"ets", "select_replace", 2, &select_replace_2},
};

}  // namespace

std::span<const BifSpec> select_bifs() { return table; }

}  // namespace beam::ets
