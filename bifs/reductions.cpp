// erlang:bump_reductions/1 (erts' bif.c): charge the caller extra reductions.
//
// erts takes a non-negative small integer, caps it at one time slice (CONTEXT_REDS) and
// charges it, which also brings the end of the slice nearer: the charge goes to the running
// slice, which the interpreter takes back after the call (vm/interp.cpp, SWAPIN).
#include <algorithm>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"

namespace beam {
namespace {

constexpr int64_t CONTEXT_REDS = 4000;  // one time slice, erts' CONTEXT_REDS

Term bump_reductions_1(Process* p, const Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0) return p->badarg();
    p->slice_reds_used += std::min(small_value(a[0]), CONTEXT_REDS);
    return am::true_;
}

constexpr BifSpec table[] = {
    {"erlang", "bump_reductions", 1, &bump_reductions_1},
};

}  // namespace

std::span<const BifSpec> reductions_bifs() { return table; }

}  // namespace beam
