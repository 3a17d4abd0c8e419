// enif_* binaries. An ErlNifBinary from enif_alloc_binary owns a BinaryBlob (ref_bin) until
// enif_make_binary turns it into a term or enif_release_binary frees it; one from
// enif_inspect_binary only looks at a term's bytes (ref_bin null) for the length of the call.
#include <cstring>
#include <new>
#include <vector>

#include "bifs/iolist.hpp"
#include "nif/nif_env.hpp"
#include "vm/binary.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

namespace {

BinaryBlob* blob_of(const ErlNifBinary* bin) { return static_cast<BinaryBlob*>(bin->ref_bin); }

// An ErlNifBinary is written field by field, size, data and ref_bin only, never as a whole
// struct: a library built against an API older than 2.7 (nif_SUITE's 2.0 and 2.4 variants)
// has a 32-byte ErlNifBinary (size, data, bin_term, ref_bin) where today's header has 40
// (size, data, ref_bin, 2 spare words), and writing the spare words overruns its stack. erts
// writes the same three fields.
void set_fields(ErlNifBinary* bin, const ErlNifBinary& from) {
    bin->size = from.size;
    bin->data = from.data;
    bin->ref_bin = from.ref_bin;
}

ErlNifBinary fresh_of(BinaryBlob* blob, size_t size) {
    ErlNifBinary b{};
    b.size = size;
    b.data = blob->data;
    b.ref_bin = blob;
    return b;
}

}  // namespace

extern "C" {

int enif_alloc_binary(size_t size, ErlNifBinary* bin) {
    BinaryBlob* blob;
    try {
        blob = BinaryBlob::create(size);
    } catch (const std::bad_alloc&) {
        return 0;
    }
    blob->size = size;
    set_fields(bin, fresh_of(blob, size));
    return 1;
}

int enif_realloc_binary(ErlNifBinary* bin, size_t size) {
    BinaryBlob* old = blob_of(bin);
    if (!old) {  // an inspected binary: a new one of its own, as erts does
        ErlNifBinary fresh;
        if (!enif_alloc_binary(size, &fresh)) return 0;
        std::memcpy(fresh.data, bin->data, std::min(size, bin->size));
        set_fields(bin, fresh);
        return 1;
    }
    if (size <= old->capacity) {
        old->size = size;
        bin->size = size;
        return 1;
    }
    ErlNifBinary fresh;
    if (!enif_alloc_binary(size, &fresh)) return 0;
    std::memcpy(fresh.data, old->data, old->size);
    old->release();
    set_fields(bin, fresh);
    return 1;
}

void enif_release_binary(ErlNifBinary* bin) {
    if (BinaryBlob* b = blob_of(bin)) b->release();
    bin->ref_bin = nullptr;
    bin->data = nullptr;
    bin->size = 0;
}

ERL_NIF_TERM enif_make_binary(ErlNifEnv* env, ErlNifBinary* bin) {
    TermAllocator& a = nif::heap(env);
    BinaryBlob* blob = blob_of(bin);
    if (!blob) return N(make_binary(a, bin->data, bin->size));
    if (bin->size <= HEAP_BIN_LIMIT) {
        Term t = make_binary(a, bin->data, bin->size);
        blob->release();
        bin->ref_bin = nullptr;
        return N(t);
    }
    blob->size = bin->size;
    bin->ref_bin = nullptr;  // the term owns it now
    return N(make_binary_from_blob(a, blob));
}

unsigned char* enif_make_new_binary(ErlNifEnv* env, size_t size, ERL_NIF_TERM* termp) {
    uint8_t* data;
    *termp = N(make_binary_uninit(nif::heap(env), size, &data));
    return data;
}

int enif_inspect_binary(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifBinary* bin) {
    Term t = T(term);
    if (!is_binary(t)) return 0;
    BitView v = bit_view(t);
    bin->size = v.byte_size();
    if (v.byte_aligned()) {
        bin->data = const_cast<uint8_t*>(v.bytes());
    } else {  // an unaligned sub-binary: an aligned copy that lives as long as the environment
        uint8_t* data;
        make_binary_uninit(nif::heap(env), bin->size, &data);
        copy_bits(v.base, v.bit_offset, data, 0, v.bit_size);
        bin->data = data;
    }
    bin->ref_bin = nullptr;
    return 1;
}

int enif_inspect_iolist_as_binary(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifBinary* bin) {
    if (is_binary(T(term))) return enif_inspect_binary(env, term, bin);
    std::vector<uint8_t> bytes;
    if (!is_list(T(term)) && !is_nil(T(term))) return 0;
    if (!iolist_to_bytes(T(term), bytes)) return 0;
    Term flat = make_binary(nif::heap(env), bytes.data(), bytes.size());
    return enif_inspect_binary(env, N(flat), bin);
}

ERL_NIF_TERM enif_make_sub_binary(ErlNifEnv* env, ERL_NIF_TERM bin_term, size_t pos, size_t size) {
    return N(make_sub_binary(nif::heap(env), T(bin_term), pos * 8, size * 8));
}

}  // extern "C"
