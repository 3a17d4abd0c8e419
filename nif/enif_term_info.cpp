// enif_term_type and enif_hash: what kind of term a NIF holds, and its hash values.
#include <cstdio>
#include <cstdlib>

#include "bifs/hash.hpp"
#include "nif/nif_env.hpp"
#include "vm/fatal_error.hpp"
#include "vm/binary.hpp"
#include "vm/map_hash.hpp"

using namespace beam;
using beam::nif::T;

extern "C" {

// erts classifies by tag and has no other kinds: a match context or a hash map's inner node
// never reaches a NIF, and erts aborts on such garbage ("Invalid term passed to enif_term_type").
ErlNifTermType enif_term_type(ErlNifEnv*, ERL_NIF_TERM term) {
    Term t = T(term);
    if (is_atom(t)) return ERL_NIF_TERM_TYPE_ATOM;
    if (is_integer(t)) return ERL_NIF_TERM_TYPE_INTEGER;
    if (is_list(t) || is_nil(t)) return ERL_NIF_TERM_TYPE_LIST;
    if (is_tuple(t)) return ERL_NIF_TERM_TYPE_TUPLE;
    if (is_bitstring(t)) return ERL_NIF_TERM_TYPE_BITSTRING;
    if (is_float(t)) return ERL_NIF_TERM_TYPE_FLOAT;
    if (is_map(t)) return ERL_NIF_TERM_TYPE_MAP;
    if (is_any_fun(t)) return ERL_NIF_TERM_TYPE_FUN;
    if (is_pid(t)) return ERL_NIF_TERM_TYPE_PID;
    if (is_port(t)) return ERL_NIF_TERM_TYPE_PORT;
    if (is_ref(t)) return ERL_NIF_TERM_TYPE_REFERENCE;
    fatal_error("invalid term passed to enif_term_type");
}

// ERL_NIF_INTERNAL_HASH is make_internal_hash salted with the low 32 bits of `salt`.
// ERL_NIF_PHASH2 is erlang:phash2/1's value: erts ignores the salt there (its comment: salted
// make_hash2 does not mix well, so salted phash2 is unsupported). Any other type hashes to 0.
ErlNifUInt64 enif_hash(ErlNifHash type, ERL_NIF_TERM term, ErlNifUInt64 salt) {
    switch (type) {
    case ERL_NIF_INTERNAL_HASH: return internal_hash(T(term), uint32_t(salt));
    case ERL_NIF_PHASH2: return make_hash2(T(term)) & ((uint32_t{1} << 27) - 1);
    default: return 0;
    }
}

}  // extern "C"
