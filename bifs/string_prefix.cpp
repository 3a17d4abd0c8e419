// string:list_to_integer/1 and string:list_to_float/1 (OTP: erl_bif_chksum.c's neighbour
// string natives in bif.c): parse a number at the start of a character list and return
// {Number, RestOfList}. The rest is the list from the first character not used, so an
// improper tail survives ([$1|a] -> {1, a}). Errors are values, not exceptions:
// {error, not_a_list} | {error, no_integer} | {error, no_float}. Checked on erl 25.
#include <cmath>
#include <cstdlib>
#include <string>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"

namespace beam {
namespace {

// Reads characters from a list as long as they are small integers; `cells[i]` is the list
// from character i on, so the rest after k characters is cells[k].
struct Scan {
    std::string text;  // characters 0..255 only; a larger one ends the scan
    std::vector<Term> cells;
    explicit Scan(Term list) {
        Term t = list;
        for (; is_list(t); t = tail(t)) {
            Term h = head(t);
            if (!is_small(h) || small_value(h) < 0 || small_value(h) > 255) break;
            cells.push_back(t);
            text += char(small_value(h));
        }
        cells.push_back(t);
    }
    size_t digits_from(size_t i) const {
        size_t j = i;
        while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
        return j - i;
    }
};

Term error_tuple(Process* p, const char* what) { return make_tuple(*p, {am::error, atom(what)}); }

Term list_to_integer_1(Process* p, const Term* a) {
    if (!is_list(a[0]) && !is_nil(a[0])) return error_tuple(p, "not_a_list");
    Scan s(a[0]);
    size_t i = (!s.text.empty() && (s.text[0] == '-' || s.text[0] == '+')) ? 1 : 0;
    size_t n = s.digits_from(i);
    if (n == 0) return error_tuple(p, "no_integer");
    std::string digits = s.text.substr(0, i + n);
    if (digits[0] == '+') digits.erase(0, 1);
    auto v = int_from_string(*p, digits);
    if (!v) return error_tuple(p, "no_integer");
    return make_tuple(*p, {*v, s.cells[i + n]});
}

// [+-]digits.digits([eE][+-]?digits)?  The exponent is used only when it is complete.
Term list_to_float_1(Process* p, const Term* a) {
    if (!is_list(a[0]) && !is_nil(a[0])) return error_tuple(p, "not_a_list");
    Scan s(a[0]);
    size_t i = (!s.text.empty() && (s.text[0] == '-' || s.text[0] == '+')) ? 1 : 0;
    size_t whole = s.digits_from(i);
    if (whole == 0 || i + whole >= s.text.size() || s.text[i + whole] != '.') return error_tuple(p, "no_float");
    size_t frac = s.digits_from(i + whole + 1);
    if (frac == 0) return error_tuple(p, "no_float");
    size_t end = i + whole + 1 + frac;
    if (end < s.text.size() && (s.text[end] == 'e' || s.text[end] == 'E')) {
        size_t e = end + 1;
        if (e < s.text.size() && (s.text[e] == '+' || s.text[e] == '-')) ++e;
        size_t exp_digits = s.digits_from(e);
        if (exp_digits) end = e + exp_digits;
    }
    double d = std::strtod(s.text.substr(0, end).c_str(), nullptr);
    if (!std::isfinite(d)) return error_tuple(p, "no_float");
    return make_tuple(*p, {make_float(*p, d), s.cells[end]});
}

constexpr BifSpec table[] = {
    {"string", "list_to_integer", 1, &list_to_integer_1},
    {"string", "list_to_float", 1, &list_to_float_1},
};

}  // namespace

std::span<const BifSpec> string_prefix_bifs() { return table; }

}  // namespace beam
