// Operators called as functions: erlang:'!'/2, append/2, subtract/2. erl_eval and
// apply/3 reach `To ! Msg`, `A ++ B` and `A -- B` through these names; each behaves exactly
// as its operator BIF, and a failure names the function that was called (erlang:'!'/2,
// erlang:append/2, ...), as in erl. The operator BIFs live in their families
// (bifs/system_processes.cpp, bifs/lists.cpp); this file only gives them their other names.
#include "bifs/bif_families.hpp"
#include "vm/atom_table.hpp"

namespace beam {
namespace {

// Each looks its operator up once, on first call (the registry is complete by then).
Term bang_2(Process* p, const Term* a) {
    static const BifSpec* send = find_bif(am::erlang, atom("send"), 2);
    return send->fn(p, a);
}
Term append_2(Process* p, const Term* a) {
    static const BifSpec* plusplus = find_bif(am::erlang, atom("++"), 2);
    return plusplus->fn(p, a);
}
Term subtract_2(Process* p, const Term* a) {
    static const BifSpec* minusminus = find_bif(am::erlang, atom("--"), 2);
    return minusminus->fn(p, a);
}

constexpr BifSpec table[] = {
    {"erlang", "!", 2, &bang_2},
    {"erlang", "append", 2, &append_2},
    {"erlang", "subtract", 2, &subtract_2},
};

}  // namespace

std::span<const BifSpec> operator_function_bifs() { return table; }

}  // namespace beam
