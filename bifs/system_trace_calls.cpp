// Call tracing: trace_info/2 for functions. trace_pattern/2,3 and function breakpoints are
// not here yet (bifs/not_yet_families.cpp raises not_implemented for them), so no function is
// traced and every item reads as erl reads an untraced function.
#include "bifs/system_trace.hpp"

#include "bifs/bif_util.hpp"
#include "vm/process.hpp"

namespace beam {

Term trace_info_function(Process* p, Term what, Term item) {
    bool mfa = is_tuple(what) && tuple_arity(what) == 3 && is_atom(tuple_elem(what, 0)) &&
               is_atom(tuple_elem(what, 1)) && is_small(tuple_elem(what, 2));
    if (!mfa && what != atom("on_load")) return p->badarg();
    if (item == atom("traced") || item == atom("match_spec") || item == atom("meta") ||
        item == atom("meta_match_spec") || item == atom("call_count") || item == atom("call_time") ||
        item == am::all)
        return make_tuple(*p, {item, am::false_});
    return p->badarg();
}

}  // namespace beam
