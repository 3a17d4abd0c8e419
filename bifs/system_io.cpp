// The built-in I/O servers' access to stdin/stdout/stderr (vm/erlang/beamvm_io_server.erl), the
// start-up module's crash report, and natives of OTP's io module.
#include <cstdio>

#include <fmt/format.h>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/term_print.hpp"
#include "vm/host_link.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// Which characters ~p treats as printable: latin1 unless started with +pc unicode.
Term printable_range_0(Process* p, const Term*) {
    return p->vm->emu_options.printable_unicode ? atom("unicode") : am::latin1;
}

// beamvm's start-up module reports a crash on stderr as erl does:
//   init terminating in do_boot (Reason)
Term report_boot_crash_1(Process* p, const Term* a) {
    std::fflush(p->vm->out);
    std::fprintf(stderr, "init terminating in do_boot (%s)\n", display_string(a[0]).c_str());
    return am::ok;
}

// ---- the built-in I/O server's access to stdin/stdout (vm/erlang/beamvm_io_server.erl) ----

// Appends chardata (nested lists of characters and binaries) as code points. Binaries are
// UTF-8 when `utf8`, else latin1 bytes. False if it is not chardata.
bool flatten_chars(Term t, bool utf8, std::vector<uint32_t>& out) {
    std::vector<Term> stack{t};
    while (!stack.empty()) {
        Term x = stack.back();
        stack.pop_back();
        while (is_list(x)) {
            Term h = head(x);
            if (is_small(h)) {
                if (small_value(h) < 0 || small_value(h) > 0x10FFFF) return false;
                out.push_back(uint32_t(small_value(h)));
            } else if (is_list(h) || is_nil(h) || is_binary(h)) {
                stack.push_back(tail(x));
                x = h;
                continue;
            } else {
                return false;
            }
            x = tail(x);
        }
        if (is_binary(x)) {
            BitView v = bit_view(x);
            std::string_view bytes(reinterpret_cast<const char*>(v.bytes()), v.byte_size());
            if (utf8) {
                if (!decode_utf8(bytes, out)) return false;
            } else {
                for (unsigned char c : bytes) out.push_back(c);
            }
        } else if (!is_nil(x)) {
            return false;
        }
    }
    return true;
}

// beamvm_internal:put_chars(Fd, Encoding, Chars): Fd 1 is stdout, 2 is stderr.
Term put_chars_3(Process* p, const Term* a) {
    FILE* out_file = a[0] == make_small(2) ? stderr : p->vm->out;
    a++;
    bool utf8 = a[0] == am::unicode || a[0] == am::utf8;
    std::vector<uint32_t> cps;
    if (!flatten_chars(a[1], utf8, cps)) return atom("badarg");
    if (!utf8) {
        for (uint32_t c : cps)
            if (c > 255) return atom("badarg");
    }
    // stdout is latin1, as erl -noshell writing to a pipe: wider characters are escaped.
    std::string text;
    text.reserve(cps.size());
    for (uint32_t c : cps) {
        if (c < 256) text.push_back(char(c));
        else text += fmt::format("\\x{{{:X}}}", c);
    }
    if (p->vm->host && p->vm->host->write_output(out_file == stderr ? 2 : 1, text)) return am::ok;
    if (out_file == stderr) std::fflush(p->vm->out);  // keep the two streams in program order
    std::fwrite(text.data(), 1, text.size(), out_file);
    std::fflush(out_file);
    return am::ok;
}

Term read_line_0(Process* p, const Term*) {
    std::string line;
    int c;
    while ((c = std::fgetc(stdin)) != EOF) {
        line.push_back(char(c));
        if (c == '\n') break;
    }
    if (line.empty()) return am::eof;
    return make_binary(*p, line);
}

Term read_chars_1(Process* p, const Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0) return p->badarg();
    std::string buf(size_t(small_value(a[0])), '\0');
    size_t n = std::fread(buf.data(), 1, buf.size(), stdin);
    if (n == 0 && buf.size() > 0) return am::eof;
    buf.resize(n);
    return make_binary(*p, buf);
}

// io.erl asks whether the group leader's node understands unicode I/O requests: ours does.
Term dflag_unicode_io_1(Process* p, const Term* a) { return am::true_; }

const BifSpec table[] = {
    {"beamvm_internal", "report_boot_crash", 1, &report_boot_crash_1},
    {"beamvm_internal", "put_chars", 3, &put_chars_3},
    {"beamvm_internal", "read_line", 0, &read_line_0},
    {"beamvm_internal", "read_chars", 1, &read_chars_1},
    {"net_kernel", "dflag_unicode_io", 1, &dflag_unicode_io_1},
    {"io", "printable_range", 0, &printable_range_0},
};

}  // namespace

std::span<const BifSpec> io_bifs() { return table; }

}  // namespace beam
