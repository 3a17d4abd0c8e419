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
// Up to this many decimals OTP rounds in long double arithmetic, half away from zero
// (float_to_list(0.125, [{decimals,2}]) is "0.13"); beyond it, it uses printf's exact
// rounding (half to even on exact ties). Both behaviours were checked on erl.
constexpr int FAST_DECIMALS = 18;

std::string fixed_text(double f, int decimals, bool compact) {
    std::string out;
    long double scaled = std::fabs(static_cast<long double>(f)) * powl(10.0L, decimals) + 0.5L;
    if (decimals <= FAST_DECIMALS && scaled < 18446744073709551615.0L) {
        std::string digits = std::to_string(static_cast<uint64_t>(scaled));
        if (digits.size() < size_t(decimals) + 1) digits.insert(0, size_t(decimals) + 1 - digits.size(), '0');
        if (std::signbit(f)) out += '-';
        out += digits.substr(0, digits.size() - decimals);
        if (decimals > 0) out += '.' + digits.substr(digits.size() - decimals);
    } else {
        char buf[400];
        int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, f);
        if (n < 0 || size_t(n) >= sizeof buf) return std::string(MAX_TEXT + 1, '0');
        out.assign(buf, size_t(n));
    }
    if (compact && decimals > 0) {
        size_t last = out.find_last_not_of('0');
        if (out[last] == '.') ++last;  // keep one digit after the point: "1.0"
        out.erase(last + 1);
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
            if (n < 0 || n > (dec ? MAX_DECIMALS : MAX_SCIENTIFIC)) return std::nullopt;
            mode = dec ? Decimals : Scientific;
            precision = int(n);
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

// OTP accepts [+-]digits.digits[(e|E)[+-]digits] and nothing else ("1", "1.", ".5", "1e5"
// are all badarg); a result that overflows to infinity is badarg too.
std::optional<double> parse_float(std::string_view s) {
    size_t i = 0;
    auto digits = [&] {
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i > start;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return std::nullopt;
    if (i >= s.size() || s[i] != '.') return std::nullopt;
    ++i;
    if (!digits()) return std::nullopt;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return std::nullopt;
    }
    if (i != s.size()) return std::nullopt;
    std::string text(s);
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
