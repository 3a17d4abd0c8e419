// Families of the erlang module that beamvm does not have yet: call tracing (trace_pattern/2,3,
// issue 12). Each raises
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

NOT_YET(trace_pattern_2, "erlang:trace_pattern/2")
NOT_YET(trace_pattern_3, "erlang:trace_pattern/3")

#undef NOT_YET

constexpr BifSpec table[] = {
    {"erlang", "trace_pattern", 2, &trace_pattern_2},
    {"erlang", "trace_pattern", 3, &trace_pattern_3},
};

}  // namespace

std::span<const BifSpec> not_yet_families_bifs() { return table; }

}  // namespace beam
