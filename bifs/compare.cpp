// Term comparison and boolean operators as BIFs (erlang:'=:='/2 ..., 'not'/1 ...), and
// erlang:min/2, max/2. The interpreter inlines these in the common cases; the BIF forms serve
// apply/3, funs such as fun erlang:'<'/2, and guards compiled as bif calls.
#include <cmath>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/term_order.hpp"

namespace beam {
namespace {

Term eq_exact_2(Process*, const Term* a) { return make_bool(eq_exact(a[0], a[1])); }
Term neq_exact_2(Process*, const Term* a) { return make_bool(!eq_exact(a[0], a[1])); }
Term eq_2(Process*, const Term* a) { return make_bool(eq_arith(a[0], a[1])); }
Term neq_2(Process*, const Term* a) { return make_bool(!eq_arith(a[0], a[1])); }
Term lt_2(Process*, const Term* a) { return make_bool(compare_terms(a[0], a[1]) < 0); }
Term gt_2(Process*, const Term* a) { return make_bool(compare_terms(a[0], a[1]) > 0); }
Term le_2(Process*, const Term* a) { return make_bool(compare_terms(a[0], a[1]) <= 0); }
Term ge_2(Process*, const Term* a) { return make_bool(compare_terms(a[0], a[1]) >= 0); }

// When the arguments compare equal (1 and 1.0), OTP returns the first one.
Term min_2(Process*, const Term* a) { return compare_terms(a[1], a[0]) < 0 ? a[1] : a[0]; }
Term max_2(Process*, const Term* a) { return compare_terms(a[1], a[0]) > 0 ? a[1] : a[0]; }

Term not_1(Process* p, const Term* a) {
    if (!is_boolean_atom(a[0])) return p->badarg();
    return make_bool(a[0] == am::false_);
}

template <bool (*Op)(bool, bool)>
Term bool_op_2(Process* p, const Term* a) {
    if (!is_boolean_atom(a[0]) || !is_boolean_atom(a[1])) return p->badarg();
    return make_bool(Op(a[0] == am::true_, a[1] == am::true_));
}
bool and_op(bool x, bool y) { return x && y; }
bool or_op(bool x, bool y) { return x || y; }
bool xor_op(bool x, bool y) { return x != y; }

constexpr BifSpec table[] = {
    {"erlang", "=:=", 2, &eq_exact_2, true},
    {"erlang", "=/=", 2, &neq_exact_2, true},
    {"erlang", "==", 2, &eq_2, true},
    {"erlang", "/=", 2, &neq_2, true},
    {"erlang", "<", 2, &lt_2, true},
    {"erlang", ">", 2, &gt_2, true},
    {"erlang", "=<", 2, &le_2, true},
    {"erlang", ">=", 2, &ge_2, true},
    {"erlang", "not", 1, &not_1, true},
    {"erlang", "and", 2, &bool_op_2<and_op>, true},
    {"erlang", "or", 2, &bool_op_2<or_op>, true},
    {"erlang", "xor", 2, &bool_op_2<xor_op>, true},
    {"erlang", "min", 2, &min_2},
    {"erlang", "max", 2, &max_2},
};

}  // namespace

std::span<const BifSpec> compare_bifs() { return table; }

}  // namespace beam
