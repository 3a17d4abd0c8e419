// Float <-> text: float_to_list/binary with OTP's options, list_to_float, binary_to_float
// (OTP: erl_bif_*.c float_to_list, sys_double_to_chars_fast).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

// OTP formats into a 256-byte buffer; longer results are badarg (float_to_list(1.0e300,
// [{decimals,2}])), and the option limits are those of that buffer.
constexpr size_t MAX_TEXT = 255;
constexpr int MAX_DECIMALS = 253;
constexpr int MAX_SCIENTIFIC = 249;
// OTP has two ways to print with {decimals, N}. Below 2^53 and up to 18 decimals it prints the
// integer part exactly and the fraction as round-half-up(fraction * 10^N), the product rounded
// to a double first; so digits past a double's precision are those of that product
// (float_to_list(1/3, [{decimals,17}]) is "0.33333333333333332", not the exact ...331).
// Otherwise it uses printf's exact "%.*f", and `compact` strips trailing zeros even when there
// is no decimal point (float_to_list(1.0e20, [{decimals,0}, compact]) is "1"). Both behaviours
// were checked on erl, the first against 33,000 random cases.
constexpr int FAST_DECIMALS = 18;
constexpr double FAST_LIMIT = 9007199254740992.0;  // 2^53

// Removes the zeros that end `out`; a fraction keeps one digit ("1.0").
void strip_trailing_zeros(std::string& out) {
    size_t last = out.find_last_not_of('0');
    if (last == std::string::npos) return;
    if (out[last] == '.') ++last;
    out.erase(last + 1);
}

std::string fixed_text(double f, int decimals, bool compact) {
    double a = std::fabs(f);
    if (decimals > FAST_DECIMALS || a >= FAST_LIMIT) {
        char buf[400];
        int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, f);
        if (n < 0 || size_t(n) >= sizeof buf) return std::string(MAX_TEXT + 1, '0');
        std::string out(buf, size_t(n));
        if (compact) strip_trailing_zeros(out);
        return out;
    }
    uint64_t pow10 = 1;
    for (int i = 0; i < decimals; ++i) pow10 *= 10;
    double whole = std::trunc(a);
    uint64_t int_part = uint64_t(whole);
    double scaled = (a - whole) * double(pow10);  // a - whole is exact; the product is rounded
    uint64_t frac = uint64_t(scaled);
    if (scaled - double(frac) >= 0.5) ++frac;  // exact: scaled < 10^18 keeps its fraction bits
    if (frac >= pow10) {
        frac -= pow10;
        ++int_part;
    }
    std::string out = std::signbit(f) ? "-" : "";
    out += std::to_string(int_part);
    if (decimals > 0) {
        std::string digits = std::to_string(frac);
        out += '.';
        out.append(size_t(decimals) - digits.size(), '0');
        out += digits;
        if (compact) strip_trailing_zeros(out);
    }
    return out;
}

std::string scientific_text(double f, int digits) {
    char buf[400];
    int n = std::snprintf(buf, sizeof buf, "%.*e", digits, f);
    return std::string(buf, size_t(n));
}

// The shortest digits that read back as `f`, in decimal or scientific notation, whichever is
// shorter; decimal on a tie (100.0 but 1.0e3).
std::string short_text(double f) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
    std::string_view s(buf, size_t(res.ptr - buf));
    std::string sign;
    if (s[0] == '-') {
        sign = "-";
        s.remove_prefix(1);
    }
    size_t epos = s.find('e');
    std::string digits;
    for (char c : s.substr(0, epos))
        if (c != '.') digits += c;
    int exp = std::atoi(std::string(s.substr(epos + 1)).c_str());
    int n = int(digits.size());

    std::string sci = sign + digits.substr(0, 1) + '.' + (n > 1 ? digits.substr(1) : "0") + 'e' + std::to_string(exp);
    std::string dec = sign;
    if (exp >= 0) {
        if (n - 1 <= exp) {
            dec += digits + std::string(size_t(exp - (n - 1)), '0') + ".0";
        } else {
            dec += digits.substr(0, size_t(exp) + 1) + '.' + digits.substr(size_t(exp) + 1);
        }
    } else {
        dec += "0." + std::string(size_t(-exp - 1), '0') + digits;
    }
    // From 2^53 up, where doubles no longer hold every integer, OTP always uses scientific
    // notation (9007199254740992.0 prints as 9.007199254740992e15; checked on erl).
    if (std::fabs(f) >= 9007199254740992.0) return sci;
    return dec.size() <= sci.size() ? dec : sci;
}

// Formats per float_to_list/2 options; nullopt for bad options or an over-long result.
std::optional<std::string> format_float(Term value, Term options) {
    if (!is_float(value)) return std::nullopt;
    double f = float_value(value);
    enum { Scientific, Decimals, Short } mode = Scientific;
    int precision = 20;
    bool compact = false;
    Term opts = options;
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (o == am::compact) {
            compact = true;
        } else if (o == am::short_) {
            mode = Short;
        } else if (is_tuple(o) && tuple_arity(o) == 2 && is_small(tuple_elem(o, 1)) &&
                   (tuple_elem(o, 0) == am::decimals || tuple_elem(o, 0) == am::scientific)) {
            SWord n = small_value(tuple_elem(o, 1));
            bool dec = tuple_elem(o, 0) == am::decimals;
            if (n > (dec ? MAX_DECIMALS : MAX_SCIENTIFIC) || (dec && n < 0)) return std::nullopt;
            mode = dec ? Decimals : Scientific;
            // A negative {scientific, N} reaches OTP's printf as a negative precision, which
            // means the default of 6 digits.
            precision = n < 0 ? 6 : int(n);
        } else {
            return std::nullopt;
        }
    }
    if (!is_nil(opts)) return std::nullopt;
    std::string text = mode == Short      ? short_text(f)
                       : mode == Decimals ? fixed_text(f, precision, compact)
                                          : scientific_text(f, precision);
    if (text.size() > MAX_TEXT) return std::nullopt;
    return text;
}

// OTP accepts [+-]digits(.|,)digits[(e|E)[+-]digits] and nothing else ("1", "1.", ".5", "1e5"
// are all badarg; "1,5" is 1.5); a result that overflows to infinity is badarg too. OTP parses a
// C string, so the text ends at its first NUL byte (list_to_float([$1,$.,$0,0,$x]) is 1.0).
std::optional<double> parse_float(std::string_view s) {
    s = s.substr(0, s.find('\0'));
    size_t i = 0;
    auto digits = [&] {
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i > start;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return std::nullopt;
    if (i >= s.size() || (s[i] != '.' && s[i] != ',')) return std::nullopt;
    size_t point = i++;
    if (!digits()) return std::nullopt;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return std::nullopt;
    }
    if (i != s.size()) return std::nullopt;
    std::string text(s);
    text[point] = '.';  // strtod in the C locale
    double d = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(d)) return std::nullopt;
    return d;
}

Term float_to_list_1(Process* p, const Term* a) {
    auto text = format_float(a[0], NIL);
    return text ? make_string(*p, *text) : p->badarg();
}
Term float_to_list_2(Process* p, const Term* a) {
    auto text = format_float(a[0], a[1]);
    return text ? make_string(*p, *text) : p->badarg();
}
Term float_to_binary_1(Process* p, const Term* a) {
    auto text = format_float(a[0], NIL);
    return text ? make_binary(*p, *text) : p->badarg();
}
Term float_to_binary_2(Process* p, const Term* a) {
    auto text = format_float(a[0], a[1]);
    return text ? make_binary(*p, *text) : p->badarg();
}

Term list_to_float_1(Process* p, const Term* a) {
    auto text = byte_list(a[0]);
    auto d = text ? parse_float(*text) : std::nullopt;
    return d ? make_float(*p, *d) : p->badarg();
}

Term binary_to_float_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    std::string scratch;
    auto d = parse_float(binary_bytes(a[0], scratch));
    return d ? make_float(*p, *d) : p->badarg();
}

constexpr BifSpec table[] = {
    {"erlang", "float_to_list", 1, &float_to_list_1},
    {"erlang", "float_to_list", 2, &float_to_list_2},
    {"erlang", "float_to_binary", 1, &float_to_binary_1},
    {"erlang", "float_to_binary", 2, &float_to_binary_2},
    {"erlang", "list_to_float", 1, &list_to_float_1},
    {"erlang", "binary_to_float", 1, &binary_to_float_1},
};

}  // namespace

std::span<const BifSpec> convert_float_bifs() { return table; }

}  // namespace beam
