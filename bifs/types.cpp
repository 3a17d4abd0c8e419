// Type tests (erlang:is_atom/1 ...). All are guard BIFs.
#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/module.hpp"

namespace beam {
namespace {

template <bool (*Test)(Term)>
Term is_1(Process*, const Term* a) {
    return make_bool(Test(a[0]));
}

bool t_atom(Term t) { return is_atom(t); }
bool t_binary(Term t) { return is_binary(t); }
bool t_bitstring(Term t) { return is_bitstring(t); }
bool t_boolean(Term t) { return is_boolean_atom(t); }
bool t_float(Term t) { return is_float(t); }
bool t_function(Term t) { return is_any_fun(t); }
bool t_integer(Term t) { return is_integer(t); }
bool t_list(Term t) { return is_list(t) || is_nil(t); }
bool t_map(Term t) { return is_map(t); }
bool t_number(Term t) { return is_number(t); }
bool t_pid(Term t) { return is_pid(t); }
bool t_port(Term t) { return is_port(t); }
bool t_reference(Term t) { return is_ref(t); }
bool t_tuple(Term t) { return is_tuple(t); }

Term is_function_2(Process* p, const Term* a) {
    Term arity = a[1];
    if (!is_integer(arity) || (is_small(arity) && small_value(arity) < 0) ||
        (is_big(arity) && big_is_negative(arity)))
        return p->badarg();
    if (!is_any_fun(a[0]) || !is_small(arity)) return am::false_;
    uint64_t fa = is_boxed_sub(a[0], Sub::Fun) ? fun_entry(a[0])->fun_arity() : export_of(a[0])->arity;
    return make_bool(SWord(fa) == small_value(arity));
}

Term is_record_2(Process* p, const Term* a) {
    if (!is_atom(a[1])) return p->badarg();
    Term t = a[0];
    return make_bool(is_tuple(t) && tuple_arity(t) >= 1 && tuple_elem(t, 0) == a[1]);
}

// is_record/3 called as a function (OTP: is_record_3 in bif.c): Tag must be an atom and Size a
// small integer; a negative one is simply no tuple's size.
Term is_record_3(Process* p, const Term* a) {
    if (!is_atom(a[1]) || !is_small(a[2])) return p->badarg();
    Term t = a[0];
    return make_bool(is_tuple(t) && SWord(tuple_arity(t)) == small_value(a[2]) && tuple_arity(t) >= 1 &&
                     tuple_elem(t, 0) == a[1]);
}

constexpr BifSpec table[] = {
    {"erlang", "is_atom", 1, &is_1<t_atom>, true},
    {"erlang", "is_binary", 1, &is_1<t_binary>, true},
    {"erlang", "is_bitstring", 1, &is_1<t_bitstring>, true},
    {"erlang", "is_boolean", 1, &is_1<t_boolean>, true},
    {"erlang", "is_float", 1, &is_1<t_float>, true},
    {"erlang", "is_function", 1, &is_1<t_function>, true},
    {"erlang", "is_function", 2, &is_function_2, true},
    {"erlang", "is_integer", 1, &is_1<t_integer>, true},
    {"erlang", "is_list", 1, &is_1<t_list>, true},
    {"erlang", "is_map", 1, &is_1<t_map>, true},
    {"erlang", "is_number", 1, &is_1<t_number>, true},
    {"erlang", "is_pid", 1, &is_1<t_pid>, true},
    {"erlang", "is_port", 1, &is_1<t_port>, true},
    {"erlang", "is_reference", 1, &is_1<t_reference>, true},
    {"erlang", "is_tuple", 1, &is_1<t_tuple>, true},
    {"erlang", "is_record", 2, &is_record_2, true},
    {"erlang", "is_record", 3, &is_record_3, true},
};

}  // namespace

std::span<const BifSpec> types_bifs() { return table; }

}  // namespace beam
