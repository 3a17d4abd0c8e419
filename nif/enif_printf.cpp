// enif_snprintf, enif_vsnprintf, enif_fprintf, enif_vfprintf: erts' own printf
// (erts/lib_src/common/erl_printf_format.c), not the C library's, because NIFs see its
// differences: %T prints a term as erlang:display/1 does; %p is always "0x" and 16 hex
// digits; %g chooses between %e and %f without dropping trailing zeros; "%#x" of 0 is "0x0";
// a length modifier it does not know (z) or an unknown conversion drops the '%' and what
// follows up to that character, consuming no argument; %L... fails the whole call (-EINVAL).
// On Unix erts writes "\r\n" for each "\n" it prints to stdout or stderr.
#include <cerrno>
#include <climits>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "nif/nif_env.hpp"
#include "vm/term_print.hpp"

using beam::nif::T;

namespace {

// Where the formatted text goes.
class Sink {
public:
    virtual ~Sink() = default;
    // Returns the bytes taken, which a full buffer makes fewer than n.
    virtual size_t write(const char* s, size_t n) = 0;
};

// enif_snprintf: the first size-1 bytes; the caller terminates.
class BufferSink final : public Sink {
public:
    BufferSink(char* buf, size_t room) : buf_(buf), room_(room) {}
    size_t write(const char* s, size_t n) override {
        size_t k = n < room_ ? n : room_;
        std::memcpy(buf_, s, k);
        buf_ += k;
        room_ -= k;
        return k;
    }

private:
    char* buf_;
    size_t room_;
};

class FileSink final : public Sink {
public:
    explicit FileSink(FILE* f) : f_(f), add_cr_(f == stdout || f == stderr) {}
    size_t write(const char* s, size_t n) override {
        if (!add_cr_) return std::fwrite(s, 1, n, f_);
        for (size_t i = 0; i < n; ++i) {
            if (s[i] == '\n') std::putc('\r', f_);
            std::putc(s[i], f_);
        }
        return n;
    }

private:
    FILE* f_;
    bool add_cr_;
};

enum Flag : unsigned { ALT = 1, ZERO = 2, LEFT = 4, BLANK = 8, PLUS = 16 };
enum class Len { None, HH, H, L, LL, BigL, J, T };

struct Spec {
    unsigned flags = 0;
    int width = -1;
    int precision = -1;
    Len len = Len::None;
    char conv = 0;
};

// A run of erlang:display/1's text of a term: a number erts prints through printf (counted
// whole) or anything else.
struct TermPiece {
    size_t at;
    size_t len;
    bool counted_whole;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '@' ||
           static_cast<unsigned char>(c) >= 0x80;
}

// Whether the integer text t[from, to) is a small integer (60-bit signed: erts prints those
// through printf, bignums as text).
bool fits_small(const std::string& t, size_t from, size_t to) {
    bool negative = t[from] == '-';
    std::string_view digits(t.data() + from + negative, to - from - negative);
    constexpr std::string_view LIMIT = "576460752303423488";  // 2^59
    if (digits.size() != LIMIT.size()) return digits.size() < LIMIT.size();
    return negative ? digits <= LIMIT : digits < LIMIT;
}

// Splits display text into pieces: quoted atoms, strings and text binaries, bare atoms and
// punctuation are plain; small integers (bignums are printed as text), floats ("%e"), binary
// byte values and bit counts, and the numbers of pids, ports and references are numbers.
std::vector<TermPiece> term_pieces(const std::string& t) {
    std::vector<TermPiece> out;
    size_t i = 0, n = t.size(), plain_from = 0;
    auto flush_plain = [&](size_t end) {
        if (end > plain_from) out.push_back({plain_from, end - plain_from, false});
    };
    while (i < n) {
        char c = t[i];
        if (c == '<' && i + 1 < n && std::isxdigit(static_cast<unsigned char>(t[i + 1])) &&
            t.find(">{", i) == t.find_first_not_of("0123456789abcdef", i + 1)) {
            // a hash map node's bitmap, which erts prints in hex through printf: "#<1f>{"
            size_t start = i + 1;
            i = t.find_first_not_of("0123456789abcdef", start);
            flush_plain(start);
            out.push_back({start, i - start, true});
            plain_from = i;
        } else if (c == '"' || c == '\'') {  // a string, text binary or quoted atom: up to its closing quote
            for (++i; i < n && t[i] != c; ++i)
                if (t[i] == '\\') ++i;
            ++i;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {  // an atom
            while (i < n && is_name_char(t[i])) ++i;
        } else if (is_digit(c) || (c == '-' && i + 1 < n && is_digit(t[i + 1]))) {
            size_t start = i;
            if (c == '-') ++i;
            while (i < n && is_digit(t[i])) ++i;
            bool whole = true;
            bool is_float = false;
            // A float: d.dddddde+dd (a pid's "0.9" is followed by '.', not 'e').
            size_t j = i;
            if (j < n && t[j] == '.') {
                ++j;
                while (j < n && is_digit(t[j])) ++j;
                if (j < n && t[j] == 'e' && j + 1 < n && (t[j + 1] == '+' || t[j + 1] == '-')) {
                    j += 2;
                    while (j < n && is_digit(t[j])) ++j;
                    i = j;
                    is_float = true;
                }
            }
            if (!is_float) whole = fits_small(t, start, i);
            if (whole) {
                flush_plain(start);
                out.push_back({start, i - start, true});
                plain_from = i;
            }
        } else {
            ++i;
        }
    }
    flush_plain(n);
    return out;
}

class Formatter {
public:
    explicit Formatter(Sink& out) : out_(out) {}
    int count() const { return count_; }

    void emit(const char* s, size_t n) {
        if (n) out_.write(s, n);
        count_ += int(n);
    }
    void fill(char c, int n) {
        for (; n > 0; --n) emit(&c, 1);
    }
    // A converted field: sign or base prefix, zeros up to the precision, blanks or zeros up to
    // the width, as erts lays out numbers (and, with precision 0, every other field).
    void field(const std::string& body, int sign, int width, int precision, const Spec& s) {
        std::string prefix;
        if (s.conv == 'd' || s.conv == 'i') {
            if (sign < 0) prefix = "-";
            else if (s.flags & PLUS) prefix = "+";
            else if (s.flags & BLANK) prefix = " ";
        }
        if (s.flags & ALT) {
            if (s.conv == 'x') prefix += "0x";
            else if (s.conv == 'X') prefix += "0X";
            else if (s.conv == 'o') {
                prefix += "0";
                if (precision > 1) --precision;
            }
        }
        int w = int(body.size());
        int len = (w < precision ? precision : w) + int(prefix.size());
        if (s.flags & LEFT) {
            emit(prefix.data(), prefix.size());
            fill('0', precision - w);
            emit(body.data(), body.size());
            fill(' ', width - len);
        } else if ((s.flags & ZERO) && precision < 0) {
            emit(prefix.data(), prefix.size());
            fill('0', width - len);
            emit(body.data(), body.size());
        } else {
            fill(' ', width - len);
            emit(prefix.data(), prefix.size());
            fill('0', precision - w);
            emit(body.data(), body.size());
        }
    }
    // A term (%T). erts' term printer counts what its writer took for most of the text, which
    // a full buffer makes less than the text, but counts the digits of small integers,
    // floats, binary bytes and pid, port and reference numbers in full (it prints those
    // through printf). It measures the term for right-justification with a writer that takes
    // nothing, so the term gets `width` blanks minus those digits before it.
    void term(const std::string& text, const Spec& spec) {
        std::vector<TermPiece> pieces = term_pieces(text);
        if (!(spec.flags & LEFT)) {
            int numeric = 0;
            for (const TermPiece& piece : pieces)
                if (piece.counted_whole) numeric += int(piece.len);
            fill(' ', spec.width - numeric);
        }
        int counted = 0;
        for (const TermPiece& piece : pieces) {
            size_t took = out_.write(text.data() + piece.at, piece.len);
            counted += int(piece.counted_whole ? piece.len : took);
        }
        count_ += counted;
        if (spec.flags & LEFT) fill(' ', spec.width - counted);
    }
    // Text (%c, %s) padded with blanks to the width.
    void padded(const char* s, size_t n, const Spec& spec) {
        int pad = spec.width - int(n);
        if (!(spec.flags & LEFT)) fill(' ', pad);
        emit(s, n);
        if (spec.flags & LEFT) fill(' ', pad);
    }

    void integer(uint64_t magnitude, int sign, const Spec& s, int width, int precision, char conv) {
        Spec spec = s;
        spec.conv = conv;
        unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
        const char* digits = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        std::string body;
        if (sign == 0 && precision != 0) {
            body = "0";  // zero prints a digit unless the precision is exactly 0
        } else {
            for (uint64_t v = magnitude; v; v /= base) body.insert(body.begin(), digits[v % base]);
        }
        field(body, sign, width, precision, spec);
    }

    // erts' %e %E %f %g %G: the C library converts with the precision only; erts pads.
    void floating(double v, const Spec& s) {
        int precision = s.precision < 0 ? 6 : s.precision;
        double dexp = v < 0.0 ? std::log10(-v) : v == 0.0 ? 0.0 : std::log10(v);
        int exp = int(dexp);
        char conv = s.conv;
        if (conv == 'g' || conv == 'G') {
            if (dexp < -4.0 || exp >= precision) {
                conv = conv == 'g' ? 'e' : 'E';
                precision = precision - 1 < 1 ? 1 : precision - 1;
            } else {
                conv = 'f';
            }
        }
        std::string fmt = "%";
        if (s.flags & ALT) fmt += '#';
        if (s.flags & PLUS) fmt += '+';
        else if (s.flags & BLANK) fmt += ' ';
        fmt += "0.*";
        fmt += conv;
        int n = std::snprintf(nullptr, 0, fmt.c_str(), precision, v);
        std::string body(size_t(n), '\0');
        std::snprintf(body.data(), body.size() + 1, fmt.c_str(), precision, v);
        Spec plain = s;
        plain.flags &= ~(PLUS | BLANK);
        field(body, 0, s.width, 0, plain);
    }

private:
    Sink& out_;
    int count_ = 0;
};

// Reads the length modifier at *p; false for an erts "%b<bits>" size it rejects.
bool parse_length(const char*& p, Len& len) {
    switch (*p) {
    case 'b':  // erts' own: bp (pointer-sized), be (term-sized), b64, b32, b16, b8
        ++p;
        if (*p == 'p' || *p == 'e') {
            ++p;
            len = Len::L;
        } else {
            int bits = 0;
            while (*p >= '0' && *p <= '9') bits = bits * 10 + (*p++ - '0');
            switch (bits) {
            case 64: len = Len::L; break;
            case 32: len = Len::None; break;
            case 16: len = Len::L; break;  // erts' b16 falls through into b8's flag: h|hh = l
            case 8: len = Len::HH; break;
            default: return false;
            }
        }
        return true;
    case 'h':
        ++p;
        if (*p == 'h') {
            ++p;
            len = Len::HH;
        } else {
            len = Len::H;
        }
        return true;
    case 'l':
        ++p;
        if (*p == 'l') {
            ++p;
            len = Len::LL;
        } else {
            len = Len::L;
        }
        return true;
    case 'L': ++p; len = Len::BigL; return true;
    case 'j': ++p; len = Len::J; return true;
    case 't': ++p; len = Len::T; return true;
    default: return true;
    }
}

int format(Sink& out, const char* fmt, va_list ap) {
    Formatter f(out);
    const char* p = fmt;
    const char* text = p;  // start of literal text not yet written
    while (*p) {
        if (*p != '%') {
            ++p;
            continue;
        }
        f.emit(text, size_t(p - text));
        ++p;
        Spec s;
        for (;; ++p) {
            if (*p == '#') s.flags |= ALT;
            else if (*p == '0') s.flags |= ZERO;
            else if (*p == '-') s.flags |= LEFT;
            else if (*p == ' ') s.flags |= BLANK;
            else if (*p == '+') s.flags |= PLUS;
            else if (*p == '\'' || *p == 'I') continue;  // accepted, no effect
            else break;
        }
        if (*p == '*') {
            s.width = va_arg(ap, int);  // a negative width pads nothing (no left adjust)
            ++p;
        } else if (*p >= '0' && *p <= '9') {
            s.width = 0;
            while (*p >= '0' && *p <= '9') s.width = s.width * 10 + (*p++ - '0');
        }
        if (*p == '.') {  // "." without digits leaves the precision unset
            ++p;
            if (*p == '*') {
                s.precision = va_arg(ap, int);
                ++p;
            } else if (*p >= '0' && *p <= '9') {
                s.precision = 0;
                while (*p >= '0' && *p <= '9') s.precision = s.precision * 10 + (*p++ - '0');
            }
        }
        if (!parse_length(p, s.len)) return -EINVAL;
        s.conv = *p;
        if (s.conv == '%') {
            f.emit("%", 1);
            text = ++p;
            continue;
        }
        if (!s.conv || !std::strchr("diouxXeEfgGcspnT", s.conv)) {
            text = p;  // erts skips the specification and prints on from here
            continue;
        }
        ++p;
        text = p;
        switch (s.conv) {
        case 'd':
        case 'i': {
            int64_t v;
            switch (s.len) {
            case Len::HH: v = static_cast<signed char>(va_arg(ap, int)); break;
            case Len::H: v = static_cast<short>(va_arg(ap, int)); break;
            case Len::L: v = va_arg(ap, long); break;
            case Len::LL: v = va_arg(ap, long long); break;
            default: v = va_arg(ap, int); break;  // erts reads an int for L, j and t too
            }
            uint64_t mag = v < 0 ? 0 - uint64_t(v) : uint64_t(v);
            f.integer(mag, v > 0 ? 1 : v < 0 ? -1 : 0, s, s.width, s.precision, 'd');
            break;
        }
        case 'o':
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v;
            switch (s.len) {
            case Len::HH: v = static_cast<unsigned char>(va_arg(ap, int)); break;
            case Len::H: v = static_cast<unsigned short>(va_arg(ap, int)); break;
            case Len::L: v = static_cast<unsigned long>(va_arg(ap, long)); break;
            case Len::LL: v = static_cast<unsigned long long>(va_arg(ap, long long)); break;
            default: v = static_cast<unsigned>(va_arg(ap, int)); break;
            }
            f.integer(v, v ? 1 : 0, s, s.width, s.precision, s.conv);
            break;
        }
        case 'e':
        case 'E':
        case 'f':
        case 'g':
        case 'G':
            if (s.len == Len::BigL) return -EINVAL;  // erts has no long double
            f.floating(va_arg(ap, double), s);
            break;
        case 'c': {
            char c = char(va_arg(ap, int));
            f.padded(&c, s.precision == 0 ? 0 : 1, s);
            break;
        }
        case 's': {
            const char* str = va_arg(ap, const char*);
            size_t n = s.precision >= 0 ? strnlen(str, size_t(s.precision)) : std::strlen(str);
            f.padded(str, n, s);
            break;
        }
        case 'p': {  // erts: "%#016x" whatever the flags, width and precision default to 16
            auto v = reinterpret_cast<uintptr_t>(va_arg(ap, void*));
            Spec hex;
            hex.flags = ZERO | ALT;
            f.integer(v, v ? 1 : 0, hex, s.width < 0 ? 16 : s.width, s.precision < 0 ? 16 : s.precision, 'x');
            break;
        }
        case 'n':
            switch (s.len) {
            case Len::HH: *va_arg(ap, signed char*) = static_cast<signed char>(f.count()); break;
            case Len::H: *va_arg(ap, short*) = static_cast<short>(f.count()); break;
            case Len::L: *va_arg(ap, long*) = f.count(); break;
            case Len::LL: *va_arg(ap, long long*) = f.count(); break;
            default: *va_arg(ap, int*) = f.count(); break;
            }
            break;
        case 'T': {
            // erts prints at most the precision's count of elements (100000 without one; INT_MAX
            // is no limit) and then "... ".
            long budget = s.precision < 0 ? 100000 : s.precision == INT_MAX ? LONG_MAX : long(s.precision);
            std::string term_text = beam::display_string(T(va_arg(ap, ERL_NIF_TERM)), &budget);
            if (budget <= 0) term_text += "... ";
            f.term(term_text, s);
            break;
        }
        }
    }
    f.emit(text, size_t(p - text));
    return f.count();
}

}  // namespace

extern "C" {

// The number of bytes the whole text takes (the buffer receives at most size-1 of them and a
// NUL); -EINVAL when size is 0 or the format is one erts rejects.
int enif_vsnprintf(char* buf, size_t size, const char* fmt, va_list ap) {
    if (size < 1) return -EINVAL;
    BufferSink sink(buf, size - 1);
    errno = 0;
    int n = format(sink, fmt, ap);
    if (n < 0) buf[0] = '\0';
    else buf[size_t(n) < size ? size_t(n) : size - 1] = '\0';
    return n;
}
int enif_snprintf(char* buf, size_t size, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = enif_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int enif_vfprintf(FILE* f, const char* fmt, va_list ap) {
    FileSink sink(f);
    errno = 0;
    flockfile(f);
    int n = format(sink, fmt, ap);
    funlockfile(f);
    return n;
}
int enif_fprintf(FILE* f, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = enif_vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

}  // extern "C"
