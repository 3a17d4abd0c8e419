// HTTP packets of erlang:decode_packet/3 (OTP: packet_parser.c, packet_parse_http, and the
// term builders of erl_bif_port.c). A start line is a request or a status line; in the header
// state a line is a header, or the empty line that ends the headers. Lines that do not parse
// are {http_error, Line}, the caller's business.
#include <array>
#include <cstring>
#include <string_view>

#include "bifs/bif_util.hpp"
#include "bifs/packet.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

// Header names erts turns into atoms; the Bit field of {http_header, ...} is the 1-based position.
constexpr std::array<std::string_view, 52> KNOWN_HEADERS = {
    "Cache-Control", "Connection", "Date", "Pragma", "Transfer-Encoding", "Upgrade", "Via",
    "Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization", "From",
    "Host", "If-Modified-Since", "If-Match", "If-None-Match", "If-Range", "If-Unmodified-Since",
    "Max-Forwards", "Proxy-Authorization", "Range", "Referer", "User-Agent", "Age", "Location",
    "Proxy-Authenticate", "Public", "Retry-After", "Server", "Vary", "Warning",
    "Www-Authenticate", "Allow", "Content-Base", "Content-Encoding", "Content-Language",
    "Content-Length", "Content-Location", "Content-Md5", "Content-Range", "Content-Type", "Etag",
    "Expires", "Last-Modified", "Accept-Ranges", "Set-Cookie", "Set-Cookie2", "X-Forwarded-For",
    "Cookie", "Keep-Alive", "Proxy-Connection"};
constexpr std::array<std::string_view, 7> KNOWN_METHODS = {"OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE"};
// Names longer than this are returned as they came, without case adjustment (erts' limit).
constexpr size_t MAX_HEADER_NAME = 50;

bool is_space(uint8_t c) { return c == ' ' || c == '\t'; }
bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

// RFC 2616 separators, controls and non-ASCII end a token (DEL does not, as in erts).
bool is_tspecial(uint8_t c) {
    if (c <= 32 || c >= 128) return true;
    return std::strchr("()<>@,;:\\\"/[]?={}", c) != nullptr;
}

// A cursor over the line being parsed.
struct Cursor {
    const uint8_t* p;
    size_t n;
    bool at(uint8_t c) const { return n && *p == c; }
    void skip() { ++p, --n; }
    size_t skip_spaces() {
        size_t k = 0;
        while (n && is_space(*p)) skip(), ++k;
        return k;
    }
    // Decimal digits (possibly none); the value wraps like erts' int.
    int number(size_t& count) {
        unsigned v = 0;
        count = 0;
        while (n && is_digit(*p)) v = v * 10 + unsigned(*p - '0'), skip(), ++count;
        return int(v);
    }
};

// "1*DIGIT . 1*DIGIT" after "HTTP/".
bool version(Cursor& c, int& major, int& minor) {
    size_t digits;
    major = c.number(digits);
    if (!digits || !c.at('.')) return false;
    c.skip();
    minor = c.number(digits);
    return digits != 0;
}

Term version_term(TermAllocator& p, int major, int minor) {
    return make_tuple(p, {make_small(major), make_small(minor)});
}

// host[:port][/path] after "http://" or "https://"; the port counts only when it is all digits
// and not 0.
Term absolute_uri(const HttpStrings& out, Term scheme, const uint8_t* s, size_t len) {
    const uint8_t* slash = static_cast<const uint8_t*>(std::memchr(s, '/', len));
    static const uint8_t ROOT[] = {'/'};
    Term path = slash ? out.make(slash, len - size_t(slash - s)) : out.make(ROOT, 1);
    size_t host_len = slash ? size_t(slash - s) : len;
    const uint8_t* colon = static_cast<const uint8_t*>(std::memchr(s, ':', host_len));
    Term port = am::undefined;
    if (colon) {
        Cursor c{colon + 1, host_len - size_t(colon - s) - 1};
        size_t digits;
        int v = c.number(digits);
        if (c.n == 0 && v != 0) port = make_small(v);
        host_len = size_t(colon - s);
    }
    Term host = out.make(s, host_len);
    return make_tuple(out.p, {atom("absoluteURI"), scheme, host, port, path});
}

bool starts_nocase(const uint8_t* s, size_t len, std::string_view prefix) {
    if (len < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
        uint8_t a = s[i], b = uint8_t(prefix[i]);
        if (a >= 'A' && a <= 'Z') a = uint8_t(a + 32);
        if (a != b) return false;
    }
    return true;
}

Term request_uri(const HttpStrings& out, const uint8_t* s, size_t len) {
    if (len == 1 && s[0] == '*') return atom("*");
    if (len <= 1 || s[0] == '/') return make_tuple(out.p, {atom("abs_path"), out.make(s, len)});
    if (starts_nocase(s, len, "http://")) return absolute_uri(out, atom("http"), s + 7, len - 7);
    if (starts_nocase(s, len, "https://")) return absolute_uri(out, atom("https"), s + 8, len - 8);
    const uint8_t* colon = static_cast<const uint8_t*>(std::memchr(s, ':', len));
    if (!colon) return out.make(s, len);
    size_t k = size_t(colon - s);
    return make_tuple(out.p, {atom("scheme"), out.make(s, k), out.make(colon + 1, len - k - 1)});
}

// Status-Line = HTTP-Version SP Status-Code SP Reason-Phrase (the phrase may be empty).
Term status_line(const HttpStrings& out, Cursor c, bool& header_state) {
    int major, minor;
    if (!version(c, major, minor)) return NON_VALUE;
    if (!c.skip_spaces()) return NON_VALUE;
    size_t digits;
    int status = c.number(digits);
    if (!c.skip_spaces() && c.n > 0) return NON_VALUE;
    header_state = true;
    Term phrase = out.make(c.p, c.n);
    return make_tuple(out.p, {atom("http_response"), version_term(out.p, major, minor), make_small(status), phrase});
}

// Request-Line = Method SP Request-URI [SP HTTP-Version] (without a version it is HTTP/0.9).
Term request_line(const HttpStrings& out, Cursor c, bool& header_state) {
    const uint8_t* method = c.p;
    while (c.n && !is_tspecial(*c.p)) c.skip();
    size_t method_len = size_t(c.p - method);
    if (c.n == 0 || method_len == 0 || !is_space(*c.p)) return NON_VALUE;
    c.skip_spaces();
    const uint8_t* uri = c.p;
    while (c.n && !is_space(*c.p)) c.skip();
    size_t uri_len = size_t(c.p - uri);
    if (uri_len == 0) return NON_VALUE;
    c.skip_spaces();
    int major = 0, minor = 9;
    if (c.n != 0) {
        if (c.n < 8 || std::memcmp(c.p, "HTTP/", 5) != 0) return NON_VALUE;
        c.p += 5, c.n -= 5;
        if (!version(c, major, minor)) return NON_VALUE;
    }
    header_state = true;
    Term meth = NON_VALUE;
    std::string_view name(reinterpret_cast<const char*>(method), method_len);
    for (auto m : KNOWN_METHODS)
        if (m == name) meth = atom(m);
    if (is_non_value(meth)) meth = out.make(method, method_len);
    Term uri_term = request_uri(out, uri, uri_len);
    return make_tuple(out.p, {atom("http_request"), meth, uri_term, version_term(out.p, major, minor)});
}

// Name ":" [spaces] Value. The name is looked up with its case adjusted (Content-Type); an
// unknown one is returned adjusted too, unless longer than MAX_HEADER_NAME.
Term header_line(const HttpStrings& out, Cursor c, const uint8_t* line) {
    uint8_t adjusted[MAX_HEADER_NAME];
    size_t name_len = 0;
    bool upper_next = true;
    while (!is_tspecial(*c.p)) {
        if (name_len < MAX_HEADER_NAME) {
            uint8_t ch = *c.p;
            if (upper_next) {
                if (ch >= 'a' && ch <= 'z') ch = uint8_t(ch - 32);
                upper_next = false;
            } else if (ch >= 'A' && ch <= 'Z') {
                ch = uint8_t(ch + 32);
            } else if (ch == '-') {
                upper_next = true;
            }
            adjusted[name_len] = ch;
        }
        ++name_len;
        c.skip();
        if (c.n == 0) return NON_VALUE;
    }
    if (*c.p != ':') return NON_VALUE;
    c.skip();
    c.skip_spaces();
    Term bit = make_small(0), name = NON_VALUE;
    if (name_len <= MAX_HEADER_NAME) {
        std::string_view s(reinterpret_cast<const char*>(adjusted), name_len);
        for (size_t i = 0; i < KNOWN_HEADERS.size(); ++i)
            if (KNOWN_HEADERS[i] == s) bit = make_small(SWord(i + 1)), name = atom(s);
        if (is_non_value(name)) name = out.make(adjusted, name_len);
    } else {
        name = out.make(line, name_len);
    }
    Term original = out.make(line, name_len);
    Term value = out.make(c.p, c.n);
    return make_tuple(out.p, {atom("http_header"), bit, name, original, value});
}

}  // namespace

Term HttpStrings::make(const uint8_t* s, size_t len) const {
    if (!as_binary) return make_byte_list(p, s, len);
    if (s >= base && s < base + size) return make_slice(p, input, size_t(s - base) * 8, len * 8);
    return make_binary(p, s, len);
}

Term parse_http_packet(const HttpStrings& out, const uint8_t* buf, size_t len, bool& header_state) {
    size_t n = len;  // without the line end (CRLF, or a lone LF)
    if (n >= 2 && buf[n - 2] == '\r') n -= 2;
    else if (n >= 1 && buf[n - 1] == '\n') n -= 1;
    Cursor c{buf, n};
    Term t;
    if (!header_state) {
        t = n >= 5 && std::memcmp(buf, "HTTP/", 5) == 0 ? status_line(out, Cursor{buf + 5, n - 5}, header_state)
                                                         : request_line(out, c, header_state);
    } else if (n == 0) {
        header_state = false;  // ready for the next message
        return atom("http_eoh");
    } else {
        t = header_line(out, c, buf);
    }
    if (!is_non_value(t)) return t;
    return make_tuple(out.p, {atom("http_error"), out.make(buf, len)});
}

}  // namespace beam
