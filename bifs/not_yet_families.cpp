// Families of the erlang module that beamvm does not have yet: seq_trace, system_monitor and
// system_profile (issue 12). Each raises
// {not_implemented, 'erlang:F/A'} and says so on stderr (as vm/exception.cpp's
// raise_not_implemented, which this library cannot reach), rather than
// falling into erlang.beam's placeholder body and raising undef.
#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include <cstdio>

#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"

namespace beam {
namespace {

Term not_yet(Process* p, const char* what) {
    std::fprintf(stderr, "beamvm: %s is not implemented\n", what);
    return p->error(make_tuple(*p, {atom("not_implemented"), atom(what)}));
}

#define NOT_YET(fn, text) \
    Term fn(Process* p, const Term*) { return not_yet(p, text); }

NOT_YET(seq_trace_2, "erlang:seq_trace/2")
NOT_YET(seq_trace_info_1, "erlang:seq_trace_info/1")
NOT_YET(seq_trace_print_1, "erlang:seq_trace_print/1")
NOT_YET(seq_trace_print_2, "erlang:seq_trace_print/2")
NOT_YET(system_monitor_0, "erlang:system_monitor/0")
NOT_YET(system_monitor_1, "erlang:system_monitor/1")
NOT_YET(system_monitor_2, "erlang:system_monitor/2")
NOT_YET(system_profile_0, "erlang:system_profile/0")
NOT_YET(system_profile_2, "erlang:system_profile/2")

#undef NOT_YET

constexpr BifSpec table[] = {
    {"erlang", "seq_trace", 2, &seq_trace_2},
    {"erlang", "seq_trace_info", 1, &seq_trace_info_1},
    {"erlang", "seq_trace_print", 1, &seq_trace_print_1},
    {"erlang", "seq_trace_print", 2, &seq_trace_print_2},
    {"erlang", "system_monitor", 0, &system_monitor_0},
    {"erlang", "system_monitor", 1, &system_monitor_1},
    {"erlang", "system_monitor", 2, &system_monitor_2},
    {"erlang", "system_profile", 0, &system_profile_0},
    {"erlang", "system_profile", 2, &system_profile_2},
};

}  // namespace

std::span<const BifSpec> not_yet_families_bifs() { return table; }

}  // namespace beam
