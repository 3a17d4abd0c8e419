// ets natives that read or write objects by key: insert, insert_new, lookup, lookup_element,
// member, delete/2, delete_object, take, first/next/last/prev, slot, update_counter,
// update_element, delete_all_objects (docs/ets.md).
#include <vector>

#include "bifs/arith.hpp"
#include "bifs/bif_util.hpp"
#include "ets/ets_access.hpp"
#include "ets/ets_natives.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_order.hpp"

namespace beam::ets {

namespace {

Term end_of_table() {
    static const Term a = atom("$end_of_table");
    return a;
}

// The objects to insert: one tuple or a proper list of them; false if any is not an object.
bool objects_of(const EtsTable* t, Term arg, std::vector<Term>& out) {
    if (is_tuple(arg)) {
        if (!is_object_for(t, arg)) return false;
        out.push_back(arg);
        return true;
    }
    if (!list_elements(arg, out)) return false;
    for (Term o : out)
        if (!is_object_for(t, o)) return false;
    return true;
}

// One object, copied before the lock, goes in under its key's lock.
Term insert_one(Process* p, EtsTable* t, EtsObject* o) {
    {
        KeyWriteLocked l(t, t->key_of(o));
        if (!l.ok) {
            ets_object_free(o);
            return p->badarg();
        }
        t->insert(o, false, l.hash);
    }
    t->grow_if_needed();
    return am::true_;
}

Term insert_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (is_tuple(a[1])) {  // the usual call: one object, no vectors
        if (!is_object_for(t.t, a[1])) return p->badarg();
        return insert_one(p, t.t, ets_object_new(a[1]));
    }
    std::vector<Term> objs;
    if (!objects_of(t.t, a[1], objs)) return p->badarg();
    std::vector<EtsObject*> copies;
    copies.reserve(objs.size());
    for (Term o : objs) copies.push_back(ets_object_new(o));  // copied before the lock
    if (copies.size() == 1) return insert_one(p, t.t, copies[0]);
    // Several objects go in at once (atomic and isolated, as OTP's): the whole table.
    WriteLocked l(t.t);
    if (!l.ok) {
        for (EtsObject* o : copies) ets_object_free(o);
        return p->badarg();
    }
    for (EtsObject* o : copies) t->insert(o);
    return am::true_;
}

Term insert_new_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    std::vector<Term> objs;
    if (!objects_of(t.t, a[1], objs)) return p->badarg();
    std::vector<EtsObject*> copies;
    for (Term o : objs) copies.push_back(ets_object_new(o));
    if (copies.size() == 1) {
        bool ok, fresh;
        {
            KeyWriteLocked l(t.t, t->key_of(copies[0]));
            ok = l.ok;
            fresh = ok && !t->lookup_one(t->key_of(copies[0]), l.hash);
            if (fresh) t->insert(copies[0], false, l.hash);
        }
        if (!fresh) {
            ets_object_free(copies[0]);
            return ok ? am::false_ : p->badarg();
        }
        t->grow_if_needed();
        return am::true_;
    }
    WriteLocked l(t.t);
    bool fresh = l.ok;
    for (size_t i = 0; fresh && i < copies.size(); i++) fresh = !t->has_key(t->key_of(copies[i]));
    if (!fresh) {
        for (EtsObject* o : copies) ets_object_free(o);
        return l.ok ? am::false_ : p->badarg();
    }
    for (EtsObject* o : copies) t->insert(o);
    return am::true_;
}

Term lookup_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    KeyReadLocked l(t.t, a[1]);
    if (!l.ok) return fail(p, "id");
    if (t->type == EtsType::Set || t->type == EtsType::OrderedSet) {
        // At most one object: no callback and no vector (the usual read of a service's
        // state table).
        const EtsObject* o = t->lookup_one(a[1], l.hash);
        if (!o) return NIL;
        Term copy = ets_copy_out(o, *p);
        return make_list_from(*p, &copy, 1);
    }
    std::vector<Term> found;
    t->lookup(a[1], [&](const EtsObject* o) { found.push_back(ets_copy_out(o, *p)); });
    return make_list_from(*p, found.data(), found.size());
}

Term lookup_element_3(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    if (!is_small(a[2]) || small_value(a[2]) < 1) return p->badarg();
    size_t pos = size_t(small_value(a[2]));
    KeyReadLocked l(t.t, a[1]);
    if (!l.ok) return fail(p, "id");
    if (t->type == EtsType::Set || t->type == EtsType::OrderedSet) {  // one object at most
        const EtsObject* o = t->lookup_one(a[1], l.hash);
        if (!o) return fail(p, "badkey");
        if (pos > tuple_arity(o->term)) return p->badarg();
        return copy_term(tuple_elem(o->term, pos - 1), *p);
    }
    std::vector<Term> found;
    bool bad = false;
    t->lookup(a[1], [&](const EtsObject* o) {
        if (pos > tuple_arity(o->term)) bad = true;
        else found.push_back(copy_term(tuple_elem(o->term, pos - 1), *p));
    });
    if (found.empty() && !bad) return fail(p, "badkey");
    if (bad) return p->badarg();
    if (t->type == EtsType::Set || t->type == EtsType::OrderedSet) return found[0];
    return make_list_from(*p, found.data(), found.size());
}

Term member_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    KeyReadLocked l(t.t, a[1]);
    if (!l.ok) return fail(p, "id");
    return make_bool(t->has_key(a[1]));
}

Term delete_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    KeyWriteLocked l(t.t, a[1]);
    if (!l.ok) return fail(p, "id");
    t->erase_key(a[1]);
    return am::true_;
}

Term delete_object_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (!is_object_for(t.t, a[1])) return p->badarg();
    KeyWriteLocked l(t.t, tuple_elem(a[1], t->keypos - 1));
    if (!l.ok) return fail(p, "id");
    t->erase_object(a[1]);
    return am::true_;
}

Term take_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    KeyWriteLocked l(t.t, a[1]);
    if (!l.ok) return fail(p, "id");
    std::vector<Term> found;
    t->lookup(a[1], [&](const EtsObject* o) { found.push_back(ets_copy_out(o, *p)); });
    t->erase_key(a[1]);
    return make_list_from(*p, found.data(), found.size());
}

Term internal_delete_all_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    WriteLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    return make_small(SWord(t->clear()));
}

// first/last/next/prev: a copy of the key, or '$end_of_table'.
Term key_or_end(Process* p, Term k) { return k == NON_VALUE ? end_of_table() : copy_term(k, *p); }

Term first_1(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    return key_or_end(p, t->first_key());
}

Term last_1(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    return key_or_end(p, t->last_key());
}

Term step(Process* p, const Term* a, bool forward) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    // a hash table continues from a deleted key's place only while fixed, as in OTP
    if (t->type != EtsType::OrderedSet && t->fixations.empty() && !t->has_key(a[1])) return p->badarg();
    return key_or_end(p, forward ? t->next_key(a[1]) : t->prev_key(a[1]));
}
Term next_2(Process* p, const Term* a) { return step(p, a, true); }
Term prev_2(Process* p, const Term* a) { return step(p, a, false); }

Term slot_2(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Read));
    if (!t) return no_table(p);
    if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
    ReadLocked l(t.t);
    if (!l.ok) return fail(p, "id");
    size_t i = size_t(small_value(a[1]));
    if (i > t->slot_count()) return p->badarg();
    if (i == t->slot_count()) return end_of_table();
    std::vector<Term> found;
    t->slot(i, [&](const EtsObject* o) { found.push_back(ets_copy_out(o, *p)); });
    return make_list_from(*p, found.data(), found.size());
}

// ---- update_counter ----

struct CounterOp {
    size_t pos;
    Term incr, threshold = NON_VALUE, setvalue = NON_VALUE;
};

// The ops of one call: a call has one op or a few, kept on the native's stack up to eight, in a
// vector past that. (A vector per call, then a std::pmr arena on the stack, showed in
// real_ets' profile: a malloc and a free, then the arena's set-up and release, per call.)
class CounterOps {
public:
    // The fields come one by one (in registers), and are stored one by one: a CounterOp built
    // on the caller's stack and passed by reference was read back with 16-byte loads the CPU
    // could not forward from its 8-byte stores (78% of this function's samples, non-PGO).
    void push_back(size_t pos, Term incr, Term threshold = NON_VALUE, Term setvalue = NON_VALUE) {
        if (n_ < INLINE) {
            CounterOp& op = inline_.items[n_];
            op.pos = pos;
            op.incr = incr;
            op.threshold = threshold;
            op.setvalue = setvalue;
        } else {
            CounterOp op{pos, incr, threshold, setvalue};
            if (n_ == INLINE) more_.assign(inline_.items, inline_.items + INLINE);
            more_.push_back(op);
        }
        ++n_;
    }
    size_t size() const { return n_; }
    CounterOp* begin() { return n_ <= INLINE ? inline_.items : more_.data(); }
    CounterOp* end() { return begin() + n_; }
    CounterOp& operator[](size_t i) { return begin()[i]; }

private:
    static constexpr size_t INLINE = 8;
    // Left uninitialised: a slot is written before it is read. (As a plain array, each call
    // constructed all eight ops, 16 stores of NON_VALUE, for the one it used: CounterOps'
    // push_back was 13% of a loop of ets:update_counter/3 calls.)
    union Slots {
        Slots() {}
        CounterOp items[INLINE];
    } inline_;
    std::vector<CounterOp> more_;
    size_t n_ = 0;
};

bool parse_counter_op(const EtsTable* t, Term op, CounterOps& out) {
    if (is_integer(op)) {
        out.push_back(size_t(t->keypos) + 1, op);
        return true;
    }
    if (!is_tuple(op)) return false;
    Word n = tuple_arity(op);
    if (n != 2 && n != 4) return false;
    Term pos = tuple_elem(op, 0), incr = tuple_elem(op, 1);
    if (!is_small(pos) || small_value(pos) < 1 || !is_integer(incr)) return false;
    Term threshold = NON_VALUE, setvalue = NON_VALUE;
    if (n == 4) {
        threshold = tuple_elem(op, 2);
        setvalue = tuple_elem(op, 3);
        if (!is_integer(threshold) || !is_integer(setvalue)) return false;
    }
    out.push_back(size_t(small_value(pos)), incr, threshold, setvalue);
    return true;
}

Term update_counter_locked(Process* p, EtsTable* t, Term key, CounterOps& ops, bool list, Term dflt);

// As erts does: counters that are small integers before and after are updated in the stored
// object itself, under the key's write lock, with no copy of the object to the caller's heap
// and back (a gen_server counting requests in ETS: update_counter was 10% of
// bench/real/svc_genserver_ets, most of it that copy and its allocations). Every op is checked
// before anything is written, so a case this does not take (a position used twice, a bignum,
// an error to raise) goes to the general path with the object untouched. On success each
// op's `incr` holds its new value.
bool update_counters_in_place(EtsTable* t, const EtsObject* cur, CounterOps& ops) {
    constexpr size_t MAX_OPS = 8;
    if (ops.size() > MAX_OPS) return false;
    Term* elems = tuple_elems(cur->term);
    Word n = tuple_arity(cur->term);
    Term next[MAX_OPS];
    for (size_t i = 0; i < ops.size(); ++i) {
        const CounterOp& op = ops[i];
        if (op.pos == t->keypos || op.pos > n || op.pos == 0) return false;
        for (size_t j = 0; j < i; ++j)
            if (ops[j].pos == op.pos) return false;
        Term old = elems[op.pos - 1];
        if (!is_small(old) || !is_small(op.incr)) return false;
        SWord v;
        if (__builtin_add_overflow(small_value(old), small_value(op.incr), &v) || !fits_small(v)) return false;
        Term nv = make_small(v);
        if (op.threshold != NON_VALUE) {
            bool neg = small_value(op.incr) < 0;
            int c = compare_terms(nv, op.threshold);
            if ((!neg && c > 0) || (neg && c < 0)) nv = op.setvalue;
            if (!is_small(nv)) return false;
        }
        next[i] = nv;
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        elems[ops[i].pos - 1] = next[i];
        ops[i].incr = next[i];
    }
    return true;
}

Term update_counter(Process* p, const Term* a, Term dflt) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (t->type != EtsType::Set && t->type != EtsType::OrderedSet) return fail(p, "table_type");
    CounterOps ops;
    bool list = false;
    if (is_list(a[2]) || a[2] == NIL) {
        list = true;
        std::vector<Term> items;
        if (!list_elements(a[2], items)) return p->badarg();
        for (Term i : items)
            if (!is_tuple(i) || !parse_counter_op(t.t, i, ops)) return p->badarg();
    } else if (!parse_counter_op(t.t, a[2], ops)) {
        return p->badarg();
    }
    if (dflt != NON_VALUE && !is_object_for(t.t, dflt)) return p->badarg();
    Term r = update_counter_locked(p, t.t, a[1], ops, list, dflt);
    if (r != NON_VALUE) t->grow_if_needed();
    return r;
}

// With the key's lock: the counters' new values, or the non-value with the error set.
Term update_counter_locked(Process* p, EtsTable* t, Term key, CounterOps& ops, bool list, Term dflt) {
    KeyWriteLocked l(t, key);
    if (!l.ok) return fail(p, "id");
    const EtsObject* cur = t->lookup_one(key, l.hash);
    Term obj;
    if (cur) {
        obj = cur->term;
    } else {
        if (dflt == NON_VALUE) return fail(p, "badkey");
        obj = dflt;
    }
    if (cur && update_counters_in_place(t, cur, ops)) {
        if (!list) return ops[0].incr;  // in_place leaves each op's new value in `incr`
        Term values[8];
        for (size_t i = 0; i < ops.size(); ++i) values[i] = ops[i].incr;
        return make_list_from(*p, values, ops.size());
    }
    // Work on a copy of the elements on the caller's heap, then store it.
    Word n = tuple_arity(obj);
    std::vector<Term> elems(tuple_elems(obj), tuple_elems(obj) + n);
    if (!cur) elems[t->keypos - 1] = key;
    std::vector<Term> results;
    for (CounterOp& op : ops) {
        if (op.pos == t->keypos) return fail(p, "keypos");
        if (op.pos > n) return fail(p, "position");
        if (!is_integer(elems[op.pos - 1])) return p->badarg();
        Term v = arith_add(p, elems[op.pos - 1], op.incr);
        if (v == NON_VALUE) return NON_VALUE;
        if (op.threshold != NON_VALUE) {
            bool neg = compare_terms(op.incr, make_small(0)) < 0;
            int c = compare_terms(v, op.threshold);
            if ((!neg && c > 0) || (neg && c < 0)) v = op.setvalue;
        }
        elems[op.pos - 1] = v;
        results.push_back(v);
    }
    Term updated = make_tuple_from(*p, elems.data(), n);
    t->insert(ets_object_new(updated), false, l.hash);
    for (Term& r : results) r = copy_term(r, *p);
    if (list) return make_list_from(*p, results.data(), results.size());
    return results[0];
}

Term update_counter_3(Process* p, const Term* a) { return update_counter(p, a, NON_VALUE); }
Term update_counter_4(Process* p, const Term* a) { return update_counter(p, a, a[3]); }

Term update_element_3(Process* p, const Term* a) {
    TableRef t(table_for(p, a[0], Need::Write));
    if (!t) return no_table(p);
    if (t->type != EtsType::Set && t->type != EtsType::OrderedSet) return fail(p, "table_type");
    std::vector<Term> items;
    if (is_tuple(a[2])) items.push_back(a[2]);
    else if (!list_elements(a[2], items)) return p->badarg();
    for (Term i : items)
        if (!is_tuple(i) || tuple_arity(i) != 2 || !is_small(tuple_elem(i, 0)) || small_value(tuple_elem(i, 0)) < 1)
            return p->badarg();
    KeyWriteLocked l(t.t, a[1]);
    if (!l.ok) return fail(p, "id");
    const EtsObject* cur = t->lookup_one(a[1], l.hash);
    if (!cur) return am::false_;
    Word n = tuple_arity(cur->term);
    std::vector<Term> elems(tuple_elems(cur->term), tuple_elems(cur->term) + n);
    for (Term i : items) {
        size_t pos = size_t(small_value(tuple_elem(i, 0)));
        if (pos == t->keypos) return fail(p, "keypos");
        if (pos > n) return p->badarg();
        elems[pos - 1] = tuple_elem(i, 1);
    }
    LiteralArea scratch;
    t->insert(ets_object_new(make_tuple_from(scratch, elems.data(), n)), false, l.hash);  // replaces: no growth
    return am::true_;
}

const BifSpec table[] = {
    {"ets", "insert", 2, &insert_2},
    {"ets", "insert_new", 2, &insert_new_2},
    {"ets", "lookup", 2, &lookup_2},
    {"ets", "lookup_element", 3, &lookup_element_3},
    {"ets", "member", 2, &member_2},
    {"ets", "delete", 2, &delete_2},
    {"ets", "delete_object", 2, &delete_object_2},
    {"ets", "take", 2, &take_2},
    {"ets", "internal_delete_all", 2, &internal_delete_all_2},
    {"ets", "first", 1, &first_1},
    {"ets", "last", 1, &last_1},
    {"ets", "next", 2, &next_2},
    {"ets", "prev", 2, &prev_2},
    {"ets", "slot", 2, &slot_2},
    {"ets", "update_counter", 3, &update_counter_3},
    {"ets", "update_counter", 4, &update_counter_4},
    {"ets", "update_element", 3, &update_element_3},
};

}  // namespace

std::span<const BifSpec> op_bifs() { return table; }

}  // namespace beam::ets
