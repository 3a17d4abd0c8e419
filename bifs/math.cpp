// The math module's natives (OTP: erl_math.c). Arguments that are not numbers are badarg;
// a result that is NaN or infinite (sqrt(-1), log(0), pow overflow) is badarith, as OTP checks
// the result of the C library call rather than the domain.
#include <cmath>
#include <numbers>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"

namespace beam {
namespace {

Term finite_or_badarith(Process* p, double r) {
    return std::isfinite(r) ? make_float(*p, r) : p->error(am::badarith);
}

template <double (*F)(double)>
Term math_1(Process* p, const Term* a) {
    auto x = number_to_double(a[0]);
    if (!x) return is_integer(a[0]) ? p->error(am::badarith) : p->badarg();
    return finite_or_badarith(p, F(*x));
}

template <double (*F)(double, double)>
Term math_2(Process* p, const Term* a) {
    auto x = number_to_double(a[0]);
    auto y = number_to_double(a[1]);
    if (!is_number(a[0]) || !is_number(a[1])) return p->badarg();
    if (!x || !y) return p->error(am::badarith);
    return finite_or_badarith(p, F(*x, *y));
}

// Wrappers give each libm overload one address for the templates above.
double f_sin(double x) { return std::sin(x); }
double f_cos(double x) { return std::cos(x); }
double f_tan(double x) { return std::tan(x); }
double f_asin(double x) { return std::asin(x); }
double f_acos(double x) { return std::acos(x); }
double f_atan(double x) { return std::atan(x); }
double f_sinh(double x) { return std::sinh(x); }
double f_cosh(double x) { return std::cosh(x); }
double f_tanh(double x) { return std::tanh(x); }
double f_asinh(double x) { return std::asinh(x); }
double f_acosh(double x) { return std::acosh(x); }
double f_atanh(double x) { return std::atanh(x); }
double f_exp(double x) { return std::exp(x); }
double f_log(double x) { return std::log(x); }
double f_log2(double x) { return std::log2(x); }
double f_log10(double x) { return std::log10(x); }
double f_sqrt(double x) { return std::sqrt(x); }
double f_erf(double x) { return std::erf(x); }
double f_erfc(double x) { return std::erfc(x); }
double f_floor(double x) { return std::floor(x); }
double f_ceil(double x) { return std::ceil(x); }
double f_atan2(double y, double x) { return std::atan2(y, x); }
double f_pow(double x, double y) { return std::pow(x, y); }
double f_fmod(double x, double y) { return std::fmod(x, y); }

Term pi_0(Process* p, const Term*) { return make_float(*p, std::numbers::pi); }

constexpr BifSpec table[] = {
    {"math", "sin", 1, &math_1<f_sin>},       {"math", "cos", 1, &math_1<f_cos>},
    {"math", "tan", 1, &math_1<f_tan>},       {"math", "asin", 1, &math_1<f_asin>},
    {"math", "acos", 1, &math_1<f_acos>},     {"math", "atan", 1, &math_1<f_atan>},
    {"math", "sinh", 1, &math_1<f_sinh>},     {"math", "cosh", 1, &math_1<f_cosh>},
    {"math", "tanh", 1, &math_1<f_tanh>},     {"math", "asinh", 1, &math_1<f_asinh>},
    {"math", "acosh", 1, &math_1<f_acosh>},   {"math", "atanh", 1, &math_1<f_atanh>},
    {"math", "exp", 1, &math_1<f_exp>},       {"math", "log", 1, &math_1<f_log>},
    {"math", "log2", 1, &math_1<f_log2>},     {"math", "log10", 1, &math_1<f_log10>},
    {"math", "sqrt", 1, &math_1<f_sqrt>},     {"math", "erf", 1, &math_1<f_erf>},
    {"math", "erfc", 1, &math_1<f_erfc>},     {"math", "floor", 1, &math_1<f_floor>},
    {"math", "ceil", 1, &math_1<f_ceil>},     {"math", "atan2", 2, &math_2<f_atan2>},
    {"math", "pow", 2, &math_2<f_pow>},       {"math", "fmod", 2, &math_2<f_fmod>},
    {"math", "pi", 0, &pi_0},  // math:tau/0 arrived in OTP 26: undef on OTP 25
};

}  // namespace

std::span<const BifSpec> math_bifs() { return table; }

}  // namespace beam
