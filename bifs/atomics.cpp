// OTP's atomics module: erts_internal:atomics_new/2 and the atomics:get/put/add/add_get/
// exchange/compare_exchange/info natives. An array of 64-bit atomic integers behind a magic
// reference (vm/term_magic_ref.hpp); signed arrays hold -2^63..2^63-1, unsigned 0..2^64-1.
// Every operation is sequentially consistent, as OTP's (its "_mb" barriers).
#include <atomic>
#include <memory>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {

namespace {

constexpr uint64_t OPT_SIGNED = 1;

class AtomicsArray final : public MagicKind<AtomicsArray> {
public:
    AtomicsArray(size_t size, bool is_signed)
        : is_signed(is_signed), size(size), values(std::make_unique<std::atomic<uint64_t>[]>(size)) {
        for (size_t i = 0; i < size; ++i) values[i].store(0, std::memory_order_relaxed);
    }
    // As erl reports it: the object with its allocation header, and the values.
    size_t byte_size() const override { return 40 + 8 * size; }

    const bool is_signed;
    const size_t size;
    std::unique_ptr<std::atomic<uint64_t>[]> values;
};

// A non-negative integer that fits a machine word; otherwise the error erl raises for it.
bool to_uword(Term t, uint64_t& out, Term& reason) {
    if (is_small(t) && small_value(t) >= 0) return out = uint64_t(small_value(t)), true;
    if (is_big(t) && !big_is_negative(t)) {
        if (big_limb_count(t) == 1) return out = big_limbs(t)[0], true;
        reason = am::system_limit;
        return false;
    }
    reason = am::badarg;
    return false;
}

// A value the array can hold, as its 64-bit pattern.
bool to_value(const AtomicsArray& a, Term t, uint64_t& out) {
    if (!is_integer(t)) return false;
    if (a.is_signed) {
        auto v = int_to_int64(t);
        if (!v) return false;
        out = uint64_t(*v);
        return true;
    }
    if (int_sign(t) < 0) return false;
    if (is_small(t)) return out = uint64_t(small_value(t)), true;
    if (big_limb_count(t) != 1) return false;
    out = big_limbs(t)[0];
    return true;
}

// An increment: any integer that fits in 64 bits, signed or unsigned (wraps around).
bool to_increment(Term t, uint64_t& out) {
    if (!is_integer(t)) return false;
    if (auto v = int_to_int64(t)) return out = uint64_t(*v), true;
    if (int_sign(t) > 0 && big_limb_count(t) == 1) return out = big_limbs(t)[0], true;
    return false;
}

Term make_value(Process* p, const AtomicsArray& a, uint64_t bits) {
    return a.is_signed ? make_integer(*p, int64_t(bits)) : make_integer_u(*p, bits);
}

// The element `ix` (1-based) of the array behind `ref`, or null.
std::atomic<uint64_t>* element(Term ref, Term ix, AtomicsArray*& a) {
    a = magic_cast<AtomicsArray>(ref);
    if (!a || !is_integer(ix)) return nullptr;
    if (!is_small(ix) || small_value(ix) < 1 || uint64_t(small_value(ix)) > a->size) return nullptr;
    return &a->values[small_value(ix) - 1];
}

Term atomics_new_2(Process* p, const Term* args) {
    uint64_t size = 0, opts = 0;
    Term reason = am::badarg;
    if (!to_uword(args[0], size, reason)) return p->error(reason);
    if (size == 0) return p->badarg();
    if (!to_uword(args[1], opts, reason)) return p->error(reason);
    if (size > UINT64_MAX / 8) return p->error(am::system_limit);
    std::unique_ptr<AtomicsArray> a;
    try {
        a = std::make_unique<AtomicsArray>(size, (opts & OPT_SIGNED) != 0);
    } catch (const std::bad_alloc&) {
        return p->error(am::system_limit);
    }
    return make_magic_ref(*p, a.release());
}

Term get_2(Process* p, const Term* args) {
    AtomicsArray* a;
    auto* v = element(args[0], args[1], a);
    if (!v) return p->badarg();
    return make_value(p, *a, v->load());
}

Term put_3(Process* p, const Term* args) {
    AtomicsArray* a;
    auto* v = element(args[0], args[1], a);
    uint64_t x;
    if (!v || !to_value(*a, args[2], x)) return p->badarg();
    v->store(x);
    return am::ok;
}

Term add_3(Process* p, const Term* args) {
    AtomicsArray* a;
    auto* v = element(args[0], args[1], a);
    uint64_t incr;
    if (!v || !to_increment(args[2], incr)) return p->badarg();
    v->fetch_add(incr);
    return am::ok;
}

Term add_get_3(Process* p, const Term* args) {
    AtomicsArray* a;
    auto* v = element(args[0], args[1], a);
    uint64_t incr;
    if (!v || !to_increment(args[2], incr)) return p->badarg();
    return make_value(p, *a, v->fetch_add(incr) + incr);
}

Term exchange_3(Process* p, const Term* args) {
    AtomicsArray* a;
    auto* v = element(args[0], args[1], a);
    uint64_t x;
    if (!v || !to_value(*a, args[2], x)) return p->badarg();
    return make_value(p, *a, v->exchange(x));
}

Term compare_exchange_4(Process* p, const Term* args) {
    AtomicsArray* a;
    auto* v = element(args[0], args[1], a);
    uint64_t expected, desired;
    if (!v || !to_value(*a, args[2], expected) || !to_value(*a, args[3], desired)) return p->badarg();
    uint64_t seen = expected;
    if (v->compare_exchange_strong(seen, desired)) return am::ok;
    return make_value(p, *a, seen);
}

Term info_1(Process* p, const Term* args) {
    AtomicsArray* a = magic_cast<AtomicsArray>(args[0]);
    if (!a) return p->badarg();
    Term max = a->is_signed ? make_integer(*p, INT64_MAX) : make_integer_u(*p, UINT64_MAX);
    Term min = a->is_signed ? make_integer(*p, INT64_MIN) : make_small(0);
    return map_from_pairs(*p, {{atom("max"), max},
                               {atom("memory"), make_integer_u(*p, a->byte_size())},
                               {atom("min"), min},
                               {atom("size"), make_integer_u(*p, a->size)}});
}

const BifSpec table[] = {
    {"erts_internal", "atomics_new", 2, &atomics_new_2},
    {"atomics", "get", 2, &get_2},
    {"atomics", "put", 3, &put_3},
    {"atomics", "add", 3, &add_3},
    {"atomics", "add_get", 3, &add_get_3},
    {"atomics", "exchange", 3, &exchange_3},
    {"atomics", "compare_exchange", 4, &compare_exchange_4},
    {"atomics", "info", 1, &info_1},
};

}  // namespace

std::span<const BifSpec> atomics_bifs() { return table; }

}  // namespace beam
