// erlang's arithmetic operators and number conversions (OTP: erl_arith.c, erl_bif_*.c).
#include "bifs/arith.hpp"

#include <cmath>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"

namespace beam {
namespace {

// Shifts whose result would need more bits than this raise system_limit, as OTP does for
// results beyond its maximum bignum size.
constexpr int64_t MAX_SHIFT_BITS = int64_t{1} << 32;

// Float arithmetic on mixed operands: both are converted to doubles; an integer too large
// for a double, or a non-finite result, is badarith.
template <class Op>
Term float_op(Process* p, Term a, Term b, Op op) {
    auto x = number_to_double(a);
    auto y = number_to_double(b);
    if (!x || !y) return p->error(am::badarith);
    double r = op(*x, *y);
    if (!std::isfinite(r)) return p->error(am::badarith);
    return make_float(*p, r);
}

bool both_integers(Term a, Term b) { return is_integer(a) && is_integer(b); }
bool both_numbers(Term a, Term b) { return is_number(a) && is_number(b); }

// An integer result beyond MAX_BIG_LIMBS comes back as NON_VALUE: OTP's system_limit.
Term within_limit(Process* p, Term r) { return is_value(r) ? r : p->error(am::system_limit); }

Term shift(Process* p, Term a, Term b, bool left) {
    if (!both_integers(a, b)) return p->error(am::badarith);
    int64_t n;
    if (is_small(b)) {
        n = small_value(b);
    } else {
        // A bignum shift count: the result is 0/-1 going right, impossible going left.
        bool right = left == big_is_negative(b);
        if (a == make_small(0)) return a;
        if (!right) return p->error(am::system_limit);
        return make_small(int_sign(a) < 0 ? -1 : 0);
    }
    if (!left) n = -n;
    if (n > MAX_SHIFT_BITS) {
        if (a == make_small(0)) return a;
        return p->error(am::system_limit);
    }
    if (n < -MAX_SHIFT_BITS) return make_small(int_sign(a) < 0 ? -1 : 0);
    return within_limit(p, int_bsl(*p, a, n));
}

}  // namespace

Term arith_add(Process* p, Term a, Term b) {
    if (both_integers(a, b)) return within_limit(p, int_add(*p, a, b));
    if (!both_numbers(a, b)) return p->error(am::badarith);
    return float_op(p, a, b, [](double x, double y) { return x + y; });
}

Term arith_sub(Process* p, Term a, Term b) {
    if (both_integers(a, b)) return within_limit(p, int_sub(*p, a, b));
    if (!both_numbers(a, b)) return p->error(am::badarith);
    return float_op(p, a, b, [](double x, double y) { return x - y; });
}

Term arith_mul(Process* p, Term a, Term b) {
    if (both_integers(a, b)) return within_limit(p, int_mul(*p, a, b));
    if (!both_numbers(a, b)) return p->error(am::badarith);
    return float_op(p, a, b, [](double x, double y) { return x * y; });
}

Term arith_fdiv(Process* p, Term a, Term b) {
    if (!both_numbers(a, b)) return p->error(am::badarith);
    // Division by zero (0 or 0.0) gives a non-finite result, hence badarith.
    return float_op(p, a, b, [](double x, double y) { return x / y; });
}

Term arith_div(Process* p, Term a, Term b) {
    if (!both_integers(a, b)) return p->error(am::badarith);
    Term r = int_div(*p, a, b);
    return is_value(r) ? r : p->error(am::badarith);
}

Term arith_rem(Process* p, Term a, Term b) {
    if (!both_integers(a, b)) return p->error(am::badarith);
    Term r = int_rem(*p, a, b);
    return is_value(r) ? r : p->error(am::badarith);
}

Term arith_band(Process* p, Term a, Term b) {
    if (!both_integers(a, b)) return p->error(am::badarith);
    return within_limit(p, int_band(*p, a, b));
}

Term arith_bor(Process* p, Term a, Term b) {
    if (!both_integers(a, b)) return p->error(am::badarith);
    return within_limit(p, int_bor(*p, a, b));
}

Term arith_bxor(Process* p, Term a, Term b) {
    if (!both_integers(a, b)) return p->error(am::badarith);
    return within_limit(p, int_bxor(*p, a, b));
}

Term arith_bsl(Process* p, Term a, Term b) { return shift(p, a, b, true); }
Term arith_bsr(Process* p, Term a, Term b) { return shift(p, a, b, false); }

Term arith_bnot(Process* p, Term a) {
    if (!is_integer(a)) return p->error(am::badarith);
    return within_limit(p, int_bnot(*p, a));
}

Term arith_neg(Process* p, Term a) {
    if (is_integer(a)) return within_limit(p, int_neg(*p, a));
    if (is_float(a)) return make_float(*p, -float_value(a));
    return p->error(am::badarith);
}

Term arith_plus(Process* p, Term a) { return is_number(a) ? a : p->error(am::badarith); }

namespace {

Term plus_2(Process* p, const Term* a) { return arith_add(p, a[0], a[1]); }
Term minus_2(Process* p, const Term* a) { return arith_sub(p, a[0], a[1]); }
Term times_2(Process* p, const Term* a) { return arith_mul(p, a[0], a[1]); }
Term fdiv_2(Process* p, const Term* a) { return arith_fdiv(p, a[0], a[1]); }
Term div_2(Process* p, const Term* a) { return arith_div(p, a[0], a[1]); }
Term rem_2(Process* p, const Term* a) { return arith_rem(p, a[0], a[1]); }
Term band_2(Process* p, const Term* a) { return arith_band(p, a[0], a[1]); }
Term bor_2(Process* p, const Term* a) { return arith_bor(p, a[0], a[1]); }
Term bxor_2(Process* p, const Term* a) { return arith_bxor(p, a[0], a[1]); }
Term bsl_2(Process* p, const Term* a) { return arith_bsl(p, a[0], a[1]); }
Term bsr_2(Process* p, const Term* a) { return arith_bsr(p, a[0], a[1]); }
Term bnot_1(Process* p, const Term* a) { return arith_bnot(p, a[0]); }
Term minus_1(Process* p, const Term* a) { return arith_neg(p, a[0]); }
Term plus_1(Process* p, const Term* a) { return arith_plus(p, a[0]); }

// The conversion BIFs below are guard BIFs and raise badarg, not badarith.
Term abs_1(Process* p, const Term* a) {
    Term x = a[0];
    // OTP tests `< 0`, so abs(-0.0) stays -0.0.
    if (is_float(x)) return float_value(x) < 0 ? make_float(*p, -float_value(x)) : x;
    if (!is_integer(x)) return p->badarg();
    return int_sign(x) < 0 ? within_limit(p, int_neg(*p, x)) : x;
}

Term float_1(Process* p, const Term* a) {
    Term x = a[0];
    if (is_float(x)) return x;
    if (!is_integer(x)) return p->badarg();
    auto d = number_to_double(x);
    return d ? make_float(*p, *d) : p->badarg();
}

template <double (*Round)(double)>
Term to_integer_1(Process* p, const Term* a) {
    Term x = a[0];
    if (is_integer(x)) return x;
    if (!is_float(x)) return p->badarg();
    return int_from_double(*p, Round(float_value(x)));
}

double round_away(double d) { return std::round(d); }
double trunc_d(double d) { return std::trunc(d); }
double floor_d(double d) { return std::floor(d); }
double ceil_d(double d) { return std::ceil(d); }

constexpr BifSpec table[] = {
    {"erlang", "+", 2, &plus_2, true},
    {"erlang", "-", 2, &minus_2, true},
    {"erlang", "*", 2, &times_2, true},
    {"erlang", "/", 2, &fdiv_2, true},
    {"erlang", "div", 2, &div_2, true},
    {"erlang", "rem", 2, &rem_2, true},
    {"erlang", "band", 2, &band_2, true},
    {"erlang", "bor", 2, &bor_2, true},
    {"erlang", "bxor", 2, &bxor_2, true},
    {"erlang", "bsl", 2, &bsl_2, true},
    {"erlang", "bsr", 2, &bsr_2, true},
    {"erlang", "bnot", 1, &bnot_1, true},
    {"erlang", "-", 1, &minus_1, true},
    {"erlang", "+", 1, &plus_1, true},
    {"erlang", "abs", 1, &abs_1, true},
    {"erlang", "float", 1, &float_1, true},
    {"erlang", "trunc", 1, &to_integer_1<trunc_d>, true},
    {"erlang", "round", 1, &to_integer_1<round_away>, true},
    {"erlang", "floor", 1, &to_integer_1<floor_d>, true},
    {"erlang", "ceil", 1, &to_integer_1<ceil_d>, true},
};

}  // namespace

std::span<const BifSpec> arith_bifs() { return table; }

}  // namespace beam
