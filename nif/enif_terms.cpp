// enif_* inspection and construction of numbers, atoms, strings, tuples and lists.
#include <cmath>
#include <cstdarg>
#include <cstring>
#include <vector>

#include "bifs/bif_util.hpp"
#include "nif/nif_env.hpp"
#include "nif/nif_text.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/term_order.hpp"
#include "vm/term_refs.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

namespace {

// An integer term's value if it lies in [lo, hi] (as a signed 128-bit comparison would).
template <class Int>
bool get_integer(ERL_NIF_TERM term, Int* out) {
    Term t = T(term);
    if (is_small(t)) {
        SWord v = small_value(t);
        if constexpr (std::is_signed_v<Int>) {
            if (v < SWord(std::numeric_limits<Int>::min()) || v > SWord(std::numeric_limits<Int>::max())) return false;
        } else {
            if (v < 0 || uint64_t(v) > uint64_t(std::numeric_limits<Int>::max())) return false;
        }
        *out = Int(v);
        return true;
    }
    if (!is_big(t) || big_limb_count(t) != 1) return false;
    uint64_t mag = big_limbs(t)[0];
    if constexpr (std::is_signed_v<Int>) {
        if (sizeof(Int) < 8) return false;  // a bignum never fits 32 bits
        if (big_is_negative(t)) {
            if (mag > uint64_t(1) << 63) return false;
            *out = Int(-static_cast<__int128>(mag));
        } else {
            if (mag > uint64_t(std::numeric_limits<int64_t>::max())) return false;
            *out = Int(mag);
        }
    } else {
        if (sizeof(Int) < 8 || big_is_negative(t)) return false;
        *out = Int(mag);
    }
    return true;
}

Term make_term_list(TermAllocator& a, const ERL_NIF_TERM* arr, unsigned cnt) {
    Term* hp = a.alloc(2 * size_t(cnt));
    Term list = NIL;
    for (unsigned i = cnt; i-- > 0;) list = cons_at(hp + 2 * i, T(arr[i]), list);
    return list;
}

}  // namespace

extern "C" {

// ---- type tests ----
int enif_is_atom(ErlNifEnv*, ERL_NIF_TERM t) { return is_atom(T(t)); }
int enif_is_binary(ErlNifEnv*, ERL_NIF_TERM t) { return is_binary(T(t)); }
int enif_is_ref(ErlNifEnv*, ERL_NIF_TERM t) { return is_ref(T(t)); }
int enif_is_fun(ErlNifEnv*, ERL_NIF_TERM t) { return is_any_fun(T(t)); }
int enif_is_pid(ErlNifEnv*, ERL_NIF_TERM t) { return is_pid(T(t)); }
int enif_is_port(ErlNifEnv*, ERL_NIF_TERM t) { return is_port(T(t)); }
int enif_is_list(ErlNifEnv*, ERL_NIF_TERM t) { return is_list(T(t)) || is_nil(T(t)); }
int enif_is_tuple(ErlNifEnv*, ERL_NIF_TERM t) { return is_tuple(T(t)); }
int enif_is_empty_list(ErlNifEnv*, ERL_NIF_TERM t) { return is_nil(T(t)); }
int enif_is_map(ErlNifEnv*, ERL_NIF_TERM t) { return is_map(T(t)); }
int enif_is_number(ErlNifEnv*, ERL_NIF_TERM t) { return is_number(T(t)); }
// As erts: the non-value is an exception only once one was raised in this environment
// (enif_schedule_nif answers the non-value too, and is no exception).
int enif_is_exception(ErlNifEnv* env, ERL_NIF_TERM t) {
    return env && is_value(env->exception) && T(t) == NON_VALUE;
}
int enif_is_identical(ERL_NIF_TERM a, ERL_NIF_TERM b) { return eq_exact(T(a), T(b)); }
int enif_compare(ERL_NIF_TERM a, ERL_NIF_TERM b) { return compare_terms(T(a), T(b)); }

// ---- integers and floats ----
// On 64-bit targets erl_nif.h maps the int64 family onto these long ones (macros).
int enif_get_int(ErlNifEnv*, ERL_NIF_TERM t, int* ip) { return get_integer(t, ip); }
int enif_get_uint(ErlNifEnv*, ERL_NIF_TERM t, unsigned* ip) { return get_integer(t, ip); }
int enif_get_long(ErlNifEnv*, ERL_NIF_TERM t, long* ip) { return get_integer(t, ip); }
int enif_get_ulong(ErlNifEnv*, ERL_NIF_TERM t, unsigned long* ip) { return get_integer(t, ip); }
int enif_get_double(ErlNifEnv*, ERL_NIF_TERM t, double* dp) {
    if (!is_float(T(t))) return 0;
    *dp = float_value(T(t));
    return 1;
}
ERL_NIF_TERM enif_make_int(ErlNifEnv* env, int i) { return N(make_integer(nif::heap(env), i)); }
ERL_NIF_TERM enif_make_uint(ErlNifEnv* env, unsigned i) { return N(make_integer_u(nif::heap(env), i)); }
ERL_NIF_TERM enif_make_long(ErlNifEnv* env, long i) { return N(make_integer(nif::heap(env), i)); }
ERL_NIF_TERM enif_make_ulong(ErlNifEnv* env, unsigned long i) { return N(make_integer_u(nif::heap(env), i)); }
ERL_NIF_TERM enif_make_double(ErlNifEnv* env, double d) {
    if (!std::isfinite(d)) return enif_make_badarg(env);  // erts: no NaN or infinity terms
    return N(make_float(nif::heap(env), d));
}

// ---- atoms ----
ERL_NIF_TERM enif_make_atom_len(ErlNifEnv* env, const char* name, size_t len) {
    if (len > MAX_ATOM_CHARS) return enif_make_badarg(env);
    return N(atom(nif::latin1_to_utf8(name, len)));
}
ERL_NIF_TERM enif_make_atom(ErlNifEnv* env, const char* name) { return enif_make_atom_len(env, name, std::strlen(name)); }
int enif_make_existing_atom_len(ErlNifEnv*, const char* name, size_t len, ERL_NIF_TERM* atom, ErlNifCharEncoding enc) {
    if (enc != ERL_NIF_LATIN1 || len > MAX_ATOM_CHARS) return 0;
    std::optional<Term> a = nif::existing_latin1_atom(name, len);
    if (!a) return 0;
    *atom = N(*a);
    return 1;
}
int enif_make_existing_atom(ErlNifEnv* env, const char* name, ERL_NIF_TERM* atom, ErlNifCharEncoding enc) {
    return enif_make_existing_atom_len(env, name, std::strlen(name), atom, enc);
}
int enif_get_atom(ErlNifEnv*, ERL_NIF_TERM t, char* buf, unsigned len, ErlNifCharEncoding enc) {
    if (!is_atom(T(t)) || enc != ERL_NIF_LATIN1) return 0;
    std::optional<std::string> s = nif::atom_latin1(T(t));
    if (!s || s->size() + 1 > len) return 0;
    std::memcpy(buf, s->data(), s->size());
    buf[s->size()] = '\0';
    return int(s->size() + 1);
}
int enif_get_atom_length(ErlNifEnv*, ERL_NIF_TERM t, unsigned* len, ErlNifCharEncoding enc) {
    if (!is_atom(T(t)) || enc != ERL_NIF_LATIN1) return 0;
    std::optional<std::string> s = nif::atom_latin1(T(t));
    if (!s) return 0;
    *len = unsigned(s->size());
    return 1;
}

// ---- strings (lists of Latin-1 characters) ----
ERL_NIF_TERM enif_make_string_len(ErlNifEnv* env, const char* s, size_t len, ErlNifCharEncoding) {
    return N(make_byte_list(nif::heap(env), reinterpret_cast<const uint8_t*>(s), len));
}
ERL_NIF_TERM enif_make_string(ErlNifEnv* env, const char* s, ErlNifCharEncoding enc) {
    return enif_make_string_len(env, s, std::strlen(s), enc);
}
// Bytes written with the NUL, -len when truncated, 0 when not a Latin-1 string or len < 1.
int enif_get_string(ErlNifEnv*, ERL_NIF_TERM list, char* buf, unsigned len, ErlNifCharEncoding enc) {
    if (len < 1 || enc != ERL_NIF_LATIN1) return 0;
    Term l = T(list);
    unsigned n = 0;
    for (Term c = l; !is_nil(c); c = tail(c)) {  // validate first: nothing written on failure
        if (!is_list(c) || !is_small(head(c)) || small_value(head(c)) < 0 || small_value(head(c)) > 255) return 0;
    }
    for (; !is_nil(l); l = tail(l)) {
        if (n + 1 >= len) {
            buf[n] = '\0';
            return -int(len);
        }
        buf[n++] = char(small_value(head(l)));
    }
    buf[n] = '\0';
    return int(n + 1);
}

// ---- tuples ----
int enif_get_tuple(ErlNifEnv*, ERL_NIF_TERM t, int* arity, const ERL_NIF_TERM** array) {
    if (!is_tuple(T(t))) return 0;
    *arity = int(tuple_arity(T(t)));
    *array = reinterpret_cast<const ERL_NIF_TERM*>(tuple_elems(T(t)));
    return 1;
}
ERL_NIF_TERM enif_make_tuple_from_array(ErlNifEnv* env, const ERL_NIF_TERM arr[], unsigned cnt) {
    return N(make_tuple_from(nif::heap(env), reinterpret_cast<const Term*>(arr), cnt));
}
ERL_NIF_TERM enif_make_tuple(ErlNifEnv* env, unsigned cnt, ...) {
    std::vector<Term> elems(cnt);
    va_list ap;
    va_start(ap, cnt);
    for (unsigned i = 0; i < cnt; ++i) elems[i] = T(va_arg(ap, ERL_NIF_TERM));
    va_end(ap);
    return N(make_tuple_from(nif::heap(env), elems.data(), cnt));
}

// ---- lists ----
int enif_get_list_cell(ErlNifEnv*, ERL_NIF_TERM t, ERL_NIF_TERM* h, ERL_NIF_TERM* tl) {
    if (!is_list(T(t))) return 0;
    *h = N(head(T(t)));
    *tl = N(tail(T(t)));
    return 1;
}
int enif_get_list_length(ErlNifEnv*, ERL_NIF_TERM t, unsigned* len) {
    std::optional<size_t> n = proper_list_length(T(t));
    if (!n || *n > std::numeric_limits<unsigned>::max()) return 0;
    *len = unsigned(*n);
    return 1;
}
ERL_NIF_TERM enif_make_list_cell(ErlNifEnv* env, ERL_NIF_TERM car, ERL_NIF_TERM cdr) {
    return N(cons_at(nif::heap(env).alloc(2), T(car), T(cdr)));
}
ERL_NIF_TERM enif_make_list_from_array(ErlNifEnv* env, const ERL_NIF_TERM arr[], unsigned cnt) {
    return N(make_term_list(nif::heap(env), arr, cnt));
}
ERL_NIF_TERM enif_make_list(ErlNifEnv* env, unsigned cnt, ...) {
    std::vector<ERL_NIF_TERM> elems(cnt);
    va_list ap;
    va_start(ap, cnt);
    for (unsigned i = 0; i < cnt; ++i) elems[i] = va_arg(ap, ERL_NIF_TERM);
    va_end(ap);
    return N(make_term_list(nif::heap(env), elems.data(), cnt));
}
int enif_make_reverse_list(ErlNifEnv* env, ERL_NIF_TERM t, ERL_NIF_TERM* list) {
    std::optional<size_t> n = proper_list_length(T(t));
    if (!n) return 0;
    Term* hp = nif::heap(env).alloc(2 * *n);
    Term r = NIL;
    for (Term l = T(t); !is_nil(l); l = tail(l), hp += 2) r = cons_at(hp, head(l), r);
    *list = N(r);
    return 1;
}

// ---- references ----
ERL_NIF_TERM enif_make_ref(ErlNifEnv* env) { return N(make_new_ref(nif::heap(env))); }

}  // extern "C"
