// erlang:seq_trace/2, seq_trace_info/1 and seq_trace_print/1,2 (OTP's erl_bif_trace.c), the
// natives under kernel's seq_trace module. The token rules live in vm/seq_trace.cpp.
#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/process.hpp"
#include "vm/seq_trace.hpp"

namespace beam {

namespace {

// erlang:seq_trace(Component, Value) -> Old.
Term seq_trace_2(Process* p, const Term* a) {
    Term r = seq_trace_set(p, a[0], a[1]);
    return is_value(r) ? r : p->badarg();
}

// erlang:seq_trace_info(Component) -> {Component, Value} | [].
Term seq_trace_info_1(Process* p, const Term* a) {
    Term r = seq_trace_info(p, a[0]);
    return is_value(r) ? r : p->badarg();
}

// erlang:seq_trace_print(Msg) -> boolean(): reported if the token has the print flag.
Term seq_trace_print_1(Process* p, const Term* a) { return seq_trace_print(p, NON_VALUE, a[0]); }

// erlang:seq_trace_print(Label, Msg): only while the token's label is Label.
Term seq_trace_print_2(Process* p, const Term* a) { return seq_trace_print(p, a[0], a[1]); }

constexpr BifSpec table[] = {
    {"erlang", "seq_trace", 2, &seq_trace_2},
    {"erlang", "seq_trace_info", 1, &seq_trace_info_1},
    {"erlang", "seq_trace_print", 1, &seq_trace_print_1},
    {"erlang", "seq_trace_print", 2, &seq_trace_print_2},
};

}  // namespace

std::span<const BifSpec> seq_trace_bifs() { return table; }

}  // namespace beam
