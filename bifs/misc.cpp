// erlang:display/1, display_string/1, display_nl/0, make_ref/0, error/1,2,3, exit/1, throw/1, node/0,1,
// unique_integer/0,1; error_logger:warning_map/0 and file:native_name_encoding/0.
#include <atomic>
#include <cstdio>
#include <string>

#include "vm/host_link.hpp"
#include "vm/vm.hpp"
#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"
#include "vm/ext_ids.hpp"
#include "vm/term_refs.hpp"
#include "vm/term_print.hpp"

namespace beam {
namespace {

// erl ends each display/1 line with "\r\n" even when stdout is a pipe (checked with od -c),
// since its output goes through the terminal driver; conformance output compares byte for byte.
// Writes display/1's and its kin's text to the VM's standard output (fd 1) or error (fd 2),
// or to the embedding host's (vm/host_link.hpp).
void write_std(Process* p, int fd, std::string_view text, bool flush) {
    if (p && p->vm && p->vm->host && p->vm->host->write_output(fd, text)) return;
    FILE* f = fd == 2 ? stderr : stdout;
    std::fwrite(text.data(), 1, text.size(), f);
    if (flush) std::fflush(f);
}

Term display_1(Process* p, const Term* a) {
    std::string text = display_string(a[0]);
    text += "\r\n";
    write_std(p, 1, text, true);
    return am::true_;
}

// erts_debug:display/1: prints as erlang:display/1 does and returns the text, "\n" ended, as
// a list of its bytes.
Term debug_display_1(Process* p, const Term* a) {
    std::string text = display_string(a[0]);
    write_std(p, 1, text + "\r\n", true);
    return make_string(*p, text + "\n");
}

// display_string/1 and display_nl/0 write to stderr, as erts does: a flat list of code points
// (UTF-8 encoded), or badarg.
Term display_string_1(Process* p, const Term* a) {
    auto text = char_list_to_utf8(a[0]);
    if (!text) return p->badarg();
    write_std(p, 2, *text, false);
    return am::true_;
}
Term display_nl_0(Process* p, const Term*) {
    write_std(p, 2, "\n", false);
    return am::true_;
}

// erlang:pid_to_list/1: "<0.Id.Serial>" ("<N.Id.Serial>" for another node's), as display/1
// and io_lib write pids.
Term pid_to_list_1(Process* p, const Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    return make_string(*p, display_string(a[0]));
}

std::atomic<uint64_t> unique_counter{1};

// Three 32-bit id words, laid out like OTP's (first word 18 bits), from one counter that is
// shared by every process and never repeats within this OS process.
Term make_ref_0(Process* p, const Term*) { return make_new_ref(*p); }

Term error_1(Process* p, const Term* a) { return p->error(a[0]); }

// error/2,3 keep the argument list so the stack trace's top frame shows it.
// The raising frame shows Args in place of the arity when Args is a list; `none` (or any
// other non-list) keeps the arity, as erl does.
Term frame_args(Term args) { return is_list(args) || is_nil(args) ? args : NON_VALUE; }

Term error_2(Process* p, const Term* a) {
    p->error(a[0]);
    p->fargs = frame_args(a[1]);
    return NON_VALUE;
}

// error/3: Options may carry {error_info, Map}, which OTP adds to the location list of the
// raising function's frame. As OTP's error_3 (bif.c) reads them, the options count only when
// every one is {error_info, Map} and the list is proper; the last one wins.
Term error_3(Process* p, const Term* a) {
    p->error(a[0]);
    p->fargs = frame_args(a[1]);
    Term info = NON_VALUE;
    Term l = a[2];
    for (; is_list(l); l = tail(l)) {
        Term o = head(l);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_elem(o, 0) != am::error_info || !is_map(tuple_elem(o, 1)))
            break;
        info = o;
    }
    if (is_nil(l)) p->ferror_info = info;
    return NON_VALUE;
}

Term exit_1(Process* p, const Term* a) { return p->raise(ErrorClass::Exit, a[0]); }
Term throw_1(Process* p, const Term* a) { return p->raise(ErrorClass::Throw, a[0]); }

Term node_0(Process* p, const Term*) { return this_node(p).name(); }

// This node's name for a local id, its own node for an external one (vm/ext_ids.hpp).
Term node_1(Process* p, const Term* a) {
    Term t = a[0];
    if (!is_pid(t) && !is_port(t) && !is_ref(t)) return p->badarg();
    return id_node(t, this_node(p));
}

// unique_integer([monotonic]) numbered as erts numbers it: each call takes the next count of a
// 64-bit counter (the first is 0; it wraps after 2^64 calls). The value is the count plus the
// smallest small integer, modulo 2^64: a small integer when that is one, else read unsigned
// (so the values run from -2^59 up to 2^64 - 2^59 - 1, then start again). With `positive` it
// is the count plus 1.
std::atomic<uint64_t> monotonic_count{~uint64_t(0)};

Term unique_integer(Process* p, Term options) {
    bool positive = false, monotonic = false;
    for (; is_list(options); options = tail(options)) {
        if (head(options) == am::positive) positive = true;
        else if (head(options) == am::monotonic) monotonic = true;
        else return p->badarg();
    }
    if (!is_nil(options)) return p->badarg();
    return make_unique_integer(*p, positive, monotonic);
}

Term unique_integer_0(Process* p, const Term*) { return unique_integer(p, NIL); }
Term unique_integer_1(Process* p, const Term* a) { return unique_integer(p, a[0]); }

// OTP 25 keeps erlang:garbage_collect_message_area/0 only as a placeholder that raises
// `undefined` (there is no message area since R13); so does beamvm.
Term garbage_collect_message_area_0(Process* p, const Term*) { return p->error(am::undefined); }

// The level error_logger:warning_msg/1,2 reports at: erl's default (+W w), warning.
Term warning_map_0(Process* p, const Term*) { return p->vm->warning_map == NIL ? atom("warning") : p->vm->warning_map; }

// erl's +fnu/+fnl/+fna (tools/emu_flags.cpp; +fna, the default, follows the locale's charset).
Term native_name_encoding_0(Process* p, const Term*) {
    return atom(p->vm->emu_options.filename_utf8 ? "utf8" : "latin1");
}

constexpr BifSpec table[] = {
    {"erlang", "garbage_collect_message_area", 0, &garbage_collect_message_area_0},
    {"error_logger", "warning_map", 0, &warning_map_0},
    {"file", "native_name_encoding", 0, &native_name_encoding_0},
    {"erlang", "display", 1, &display_1},
    {"erts_debug", "display", 1, &debug_display_1},
    {"erlang", "display_string", 1, &display_string_1},
    {"erlang", "display_nl", 0, &display_nl_0},
    {"erlang", "make_ref", 0, &make_ref_0},
    {"erlang", "pid_to_list", 1, &pid_to_list_1},
    {"erlang", "error", 1, &error_1},
    {"erlang", "error", 2, &error_2},
    {"erlang", "error", 3, &error_3},
    {"erlang", "exit", 1, &exit_1},
    {"erlang", "throw", 1, &throw_1},
    {"erlang", "node", 0, &node_0, true},
    {"erlang", "node", 1, &node_1, true},
    {"erlang", "unique_integer", 0, &unique_integer_0},
    {"erlang", "unique_integer", 1, &unique_integer_1},
};

}  // namespace

// One strictly increasing positive counter satisfies every option combination.
uint64_t next_unique_integer() { return unique_counter.fetch_add(1, std::memory_order_relaxed); }

Term make_unique_integer(TermAllocator& a, bool positive, bool monotonic) {
    if (!monotonic) return make_integer_u(a, next_unique_integer());
    uint64_t count = monotonic_count.fetch_add(1, std::memory_order_relaxed) + 1;
    if (positive) return make_integer_u(a, count + 1);
    uint64_t v = count + uint64_t(SMALL_MIN);
    return fits_small(SWord(v)) ? make_small(SWord(v)) : make_integer_u(a, v);
}

uint64_t unique_monotonic_state() { return monotonic_count.load(std::memory_order_relaxed); }
void set_unique_monotonic_state(uint64_t count) { monotonic_count.store(count, std::memory_order_relaxed); }

std::span<const BifSpec> misc_bifs() { return table; }

}  // namespace beam
