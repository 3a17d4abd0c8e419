// crypto's hashing natives (OTP's crypto.erl: hash/2, hash_init/1, hash_update/2,
// hash_final/1, hash_info/1, supports(hashs)) on libcrypto's EVP digests.
//
// A hash state is a magic reference to an EVP_MD_CTX that never changes once made:
// hash_update/2 returns a new state (a copy, updated) and hash_final/1 finishes a copy, so a
// state can be reused and shared between processes, as in erl.
#include <algorithm>
#include <mutex>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_common.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {
namespace {

class HashState final : public MagicObject {
public:
    HashState() : ctx(EVP_MD_CTX_new()) {}
    ~HashState() override { EVP_MD_CTX_free(ctx); }
    EVP_MD_CTX* const ctx;
};

Term hash_algorithms_0(Process* p, const Term*) {
    std::vector<Term> names;
    for (const CryptoDigest& d : crypto_digests())
        if (d.md) names.push_back(atom(d.name));
    std::reverse(names.begin(), names.end());
    return make_list_from(*p, names.data(), names.size());
}

Term hash_info_1(Process* p, const Term* a) {
    const CryptoDigest* d = crypto_digest(a[0]);
    if (!d) return p->badarg();
    if (!d->md) return atom("notsup");
    return map_from_pairs(*p, {
                                  {atom("type"), make_integer(*p, EVP_MD_get_type(d->md))},
                                  {atom("size"), make_integer(*p, EVP_MD_get_size(d->md))},
                                  {atom("block_size"), make_integer(*p, EVP_MD_get_block_size(d->md))},
                              });
}

Term hash_nif_2(Process* p, const Term* a) {
    const CryptoDigest* d = crypto_digest(a[0]);
    if (!d) return crypto_badarg(p, 0, "Bad digest type");
    if (!d->md) return crypto_notsup(p, 0, "Digest type not supported in this cryptolib");
    std::vector<uint8_t> data;
    if (!crypto_iolist_bytes(a[1], data)) return crypto_badarg(p, 1, "Not iolist");
    uint8_t out[EVP_MAX_MD_SIZE];
    unsigned size = 0;
    if (EVP_Digest(data.data(), data.size(), out, &size, d->md, nullptr) != 1)
        return crypto_failed(p, "Low-level call failed");
    crypto_charge(p, data.size());
    return make_binary(*p, out, size);
}

Term hash_init_nif_1(Process* p, const Term* a) {
    const CryptoDigest* d = crypto_digest(a[0]);
    if (!d) return crypto_badarg(p, 0, "Bad digest type");
    if (!d->md) return crypto_notsup(p, 0, "Unsupported digest type");
    auto* state = new HashState();
    if (!state->ctx || EVP_DigestInit(state->ctx, d->md) != 1) {
        delete state;
        return crypto_failed(p, "Low-level call EVP_DigestInit failed");
    }
    return make_magic_ref(*p, state);
}

Term hash_update_nif_2(Process* p, const Term* a) {
    auto* old = magic_cast<HashState>(a[0]);
    if (!old) return crypto_badarg(p, 0, "Bad state");
    std::vector<uint8_t> data;
    if (!crypto_iolist_bytes(a[1], data)) return crypto_badarg(p, 1, "Not iolist");
    auto* state = new HashState();
    if (!state->ctx || EVP_MD_CTX_copy(state->ctx, old->ctx) != 1 ||
        EVP_DigestUpdate(state->ctx, data.data(), data.size()) != 1) {
        delete state;
        return crypto_failed(p, "Low-level call EVP_DigestUpdate failed");
    }
    crypto_charge(p, data.size());
    return make_magic_ref(*p, state);
}

Term hash_final_nif_1(Process* p, const Term* a) {
    auto* state = magic_cast<HashState>(a[0]);
    if (!state) return crypto_badarg(p, 0, "Bad state");
    EVP_MD_CTX* copy = EVP_MD_CTX_new();
    uint8_t out[EVP_MAX_MD_SIZE];
    unsigned size = 0;
    bool ok = copy && EVP_MD_CTX_copy(copy, state->ctx) == 1 && EVP_DigestFinal(copy, out, &size) == 1;
    EVP_MD_CTX_free(copy);
    if (!ok) return crypto_failed(p, "Low-level call EVP_DigestFinal failed");
    return make_binary(*p, out, size);
}

constexpr BifSpec table[] = {
    {"crypto", "hash_algorithms", 0, &hash_algorithms_0},
    {"crypto", "hash_info", 1, &hash_info_1},  // the NIF is hash_info/1 itself, as in erl
    {"crypto", "hash_nif", 2, &hash_nif_2},
    {"crypto", "hash_init_nif", 1, &hash_init_nif_1},
    {"crypto", "hash_update_nif", 2, &hash_update_nif_2},
    {"crypto", "hash_final_nif", 1, &hash_final_nif_1},
};

}  // namespace

std::span<const BifSpec> crypto_hash_bifs() { return table; }

}  // namespace beam
