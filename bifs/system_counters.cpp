// The write_concurrency flavour of OTP's counters module: erts_internal:counters_new/1,
// counters_get/2, counters_add/3, counters_put/3, counters_info/1 (counters:new(N, []) and
// [atomics] use atomics, bifs/atomics.cpp). Each counter is split into one stripe per
// scheduler plus one for other threads, each stripe on cache lines of its own, so schedulers
// adding at once never contend; a read sums the stripes. As in OTP, a read concurrent with
// adds may miss some of them, and put/3 sets the sum by adjusting the first stripe.
#include <atomic>
#include <memory>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_magic_ref.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

constexpr size_t CACHE_LINE = 64;
constexpr size_t PER_LINE = CACHE_LINE / sizeof(std::atomic<int64_t>);

struct alignas(CACHE_LINE) Line {
    std::atomic<int64_t> v[PER_LINE];
};

class StripedCounters final : public MagicKind<StripedCounters> {
public:
    StripedCounters(size_t size, size_t stripes)
        : size(size), stripes(stripes), lines_per_stripe((size + PER_LINE - 1) / PER_LINE),
          lines(std::make_unique<Line[]>(stripes * lines_per_stripe)) {
        for (size_t i = 0; i < stripes * lines_per_stripe; ++i)
            for (auto& v : lines[i].v) v.store(0, std::memory_order_relaxed);
    }
    size_t byte_size() const override { return 32 + stripes * lines_per_stripe * CACHE_LINE; }

    std::atomic<int64_t>& at(size_t stripe, size_t ix) {
        return lines[stripe * lines_per_stripe + ix / PER_LINE].v[ix % PER_LINE];
    }
    int64_t sum(size_t ix) {
        uint64_t s = 0;  // wraps as OTP's 64-bit arithmetic does
        for (size_t k = 0; k < stripes; ++k) s += uint64_t(at(k, ix).load(std::memory_order_relaxed));
        return int64_t(s);
    }

    const size_t size;
    const size_t stripes;
    const size_t lines_per_stripe;
    std::unique_ptr<Line[]> lines;
};

size_t stripe_count(Process* p) { return size_t(p->vm->scheds ? p->vm->scheds->count() : 1) + 1; }

// Stripe 0 is for threads that are not schedulers; scheduler i adds to stripe i + 1.
size_t my_stripe(const StripedCounters& c) {
    int i = Schedulers::current_index();
    return i < 0 ? 0 : 1 + size_t(i) % (c.stripes - 1);
}

StripedCounters* counter_at(Term ref, Term ix, size_t& index) {
    auto* c = magic_cast<StripedCounters>(ref);
    if (!c || !is_small(ix) || small_value(ix) < 1 || uint64_t(small_value(ix)) > c->size) return nullptr;
    index = size_t(small_value(ix) - 1);
    return c;
}

Term counters_new_1(Process* p, const Term* args) {
    Term n = args[0];
    if (is_big(n) && !big_is_negative(n)) return p->error(am::system_limit);
    if (!is_small(n) || small_value(n) < 1) return p->badarg();
    size_t stripes = stripe_count(p);
    if (uint64_t(small_value(n)) > UINT64_MAX / (sizeof(int64_t) * 2 * stripes)) return p->error(am::system_limit);
    std::unique_ptr<StripedCounters> c;
    try {
        c = std::make_unique<StripedCounters>(size_t(small_value(n)), stripes);
    } catch (const std::bad_alloc&) {
        return p->error(am::system_limit);
    }
    return make_magic_ref(*p, c.release());
}

Term counters_get_2(Process* p, const Term* args) {
    size_t ix;
    StripedCounters* c = counter_at(args[0], args[1], ix);
    if (!c) return p->badarg();
    return make_integer(*p, c->sum(ix));
}

Term counters_add_3(Process* p, const Term* args) {
    size_t ix;
    StripedCounters* c = counter_at(args[0], args[1], ix);
    if (!c || !is_integer(args[2])) return p->badarg();
    uint64_t incr;
    if (auto v = int_to_int64(args[2])) incr = uint64_t(*v);
    else if (int_sign(args[2]) > 0 && big_limb_count(args[2]) == 1) incr = big_limbs(args[2])[0];
    else return p->badarg();
    c->at(my_stripe(*c), ix).fetch_add(int64_t(incr), std::memory_order_relaxed);
    return am::ok;
}

Term counters_put_3(Process* p, const Term* args) {
    size_t ix;
    StripedCounters* c = counter_at(args[0], args[1], ix);
    auto v = is_integer(args[2]) ? int_to_int64(args[2]) : std::nullopt;
    if (!c || !v) return p->badarg();
    uint64_t others = 0;
    for (size_t k = 1; k < c->stripes; ++k) others += uint64_t(c->at(k, ix).load(std::memory_order_relaxed));
    c->at(0, ix).store(int64_t(uint64_t(*v) - others), std::memory_order_relaxed);
    return am::ok;
}

Term counters_info_1(Process* p, const Term* args) {
    auto* c = magic_cast<StripedCounters>(args[0]);
    if (!c) return p->badarg();
    return map_from_pairs(*p, {{atom("memory"), make_integer_u(*p, c->byte_size())},
                               {atom("size"), make_integer_u(*p, c->size)}});
}

const BifSpec table[] = {
    {"erts_internal", "counters_new", 1, &counters_new_1},
    {"erts_internal", "counters_get", 2, &counters_get_2},
    {"erts_internal", "counters_add", 3, &counters_add_3},
    {"erts_internal", "counters_put", 3, &counters_put_3},
    {"erts_internal", "counters_info", 1, &counters_info_1},
};

}  // namespace

std::span<const BifSpec> counters_bifs() { return table; }

}  // namespace beam
