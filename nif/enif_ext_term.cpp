// enif_term_to_binary / enif_binary_to_term: the external term format (vm/ext_term.hpp) as
// erlang:term_to_binary/1 and binary_to_term/1,2 produce and read it.
#include <cstring>
#include <vector>

#include "nif/nif_env.hpp"
#include "vm/ext_term.hpp"
#include "vm/vm.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

extern "C" {

// A new binary (enif_alloc_binary's, owned by the caller) with term_to_binary/1's encoding;
// false if the term cannot be encoded or the allocation fails.
int enif_term_to_binary(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifBinary* bin) {
    std::vector<uint8_t> out;
    EncodeOptions o;
    if (env && env->vm) o.node = &env->vm->node;
    if (!encode_external(T(term), out, o).ok()) return 0;
    if (!enif_alloc_binary(out.size(), bin)) return 0;
    if (!out.empty()) std::memcpy(bin->data, out.data(), out.size());
    return 1;
}

// Decodes one term from at most `size` bytes; returns the bytes read, 0 on malformed input or
// options other than 0 and ERL_NIF_BIN2TERM_SAFE (binary_to_term/2's [safe]: no new atoms).
// Funs resolve against the calling process's code, as binary_to_term does; in a
// process-independent environment they stay unresolved until called.
size_t enif_binary_to_term(ErlNifEnv* env, const unsigned char* data, size_t size, ERL_NIF_TERM* term,
                           unsigned int opts) {
    DecodeOptions o;
    switch (opts) {
    case 0: break;
    case ERL_NIF_BIN2TERM_SAFE: o.safe = true; break;
    default: return 0;
    }
    if (env->vm) o.node = &env->vm->node;
    if (env->proc) {
        o.resolve_export = runtime_decode_hooks.resolve_export;
        o.resolve_fun = runtime_decode_hooks.resolve_fun;
        o.resolve_ctx = env->proc;
    }
    size_t used = 0;
    Result<Term> r = decode_external(nif::heap(env), {data, size}, &used, o);
    if (!r.ok()) return 0;
    *term = N(r.value());
    return used;
}

}  // extern "C"
