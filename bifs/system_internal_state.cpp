// erts_debug:set_internal_state/2 and get_internal_state/1: OTP's test hooks. As in OTP they
// exist only after set_internal_state(available_internal_state, true); before that a call
// raises undef. States beamvm does not have raise badarg, as OTP does for unknown ones.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term undef_call(Process* p, const char* name, const Term* a, unsigned arity) {
    p->error(am::undef);
    p->ftop = make_tuple(*p, {atom("erts_debug"), atom(name), make_list_from(*p, a, arity), NIL});
    return NON_VALUE;
}

Term set_internal_state_2(Process* p, const Term* a) {
    bool& available = p->vm->internal_state_available;
    if (a[0] == atom("available_internal_state")) {
        if (a[1] != am::true_ && a[1] != am::false_) return p->badarg();
        bool was = available;
        available = a[1] == am::true_;
        return make_bool(was);
    }
    if (!available) return undef_call(p, "set_internal_state", a, 2);
    return p->badarg();
}

Term get_internal_state_1(Process* p, const Term* a) {
    if (!p->vm->internal_state_available) return undef_call(p, "get_internal_state", a, 1);
    if (a[0] == atom("available_internal_state")) return am::true_;
    return p->badarg();
}

const BifSpec table[] = {
    {"erts_debug", "set_internal_state", 2, &set_internal_state_2},
    {"erts_debug", "get_internal_state", 1, &get_internal_state_1},
};

}  // namespace

std::span<const BifSpec> internal_state_bifs() { return table; }

}  // namespace beam
