// crypto's MAC natives (OTP's crypto.erl: mac/3,4, mac_init/2,3, mac_update/2, mac_final/1,
// supports(macs), pbkdf2_hmac/5) on libcrypto's EVP_MAC: HMAC over the digests of
// bifs/crypto_common.cpp, CMAC over the ciphers below, Poly1305.
//
// A MAC state (mac_init) is a magic reference to an EVP_MAC_CTX that mac_update changes in
// place and returns, as erl's does; its mutex keeps two processes sharing it from racing.
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_common.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/term_magic_ref.hpp"

namespace beam {
namespace {

// The MACs crypto names; key_bytes non-zero when the key must have that length.
struct MacType {
    std::string_view name;
    const char* openssl_name;
    size_t key_bytes;
};
constexpr MacType MAC_TYPES[] = {
    {"poly1305", "POLY1305", 32},
    {"hmac", "HMAC", 0},
    {"cmac", "CMAC", 0},
};

// The ciphers crypto's NIF knows by name, with their key lengths (0: any), as CMAC's
// sub-type. CMAC wants a CBC block cipher: libcrypto refuses the others, and the legacy ones
// (DES, Blowfish, RC2) are not in OpenSSL 3's default provider, as for erl.
struct CipherName {
    std::string_view name;
    const char* openssl_name;
    size_t key_bytes;
};
constexpr CipherName CIPHERS[] = {
    {"rc2_cbc", "rc2-cbc", 0},           {"rc4", "rc4", 0},
    {"des_cbc", "des-cbc", 0},           {"des_cfb", "des-cfb", 0},
    {"des_ecb", "des-ecb", 0},           {"des_ede3_cbc", "des-ede3-cbc", 0},
    {"des_ede3_cfb", "des-ede3-cfb", 0}, {"blowfish_cbc", "BF-CBC", 0},
    {"blowfish_cfb64", "BF-CFB", 0},     {"blowfish_ofb64", "BF-OFB", 0},
    {"blowfish_ecb", "BF-ECB", 0},       {"aes_128_cbc", "aes-128-cbc", 16},
    {"aes_192_cbc", "aes-192-cbc", 24},  {"aes_256_cbc", "aes-256-cbc", 32},
    {"aes_128_ofb", "aes-128-ofb", 16},  {"aes_192_ofb", "aes-192-ofb", 24},
    {"aes_256_ofb", "aes-256-ofb", 32},  {"aes_128_cfb8", "aes-128-cfb8", 16},
    {"aes_192_cfb8", "aes-192-cfb8", 24}, {"aes_256_cfb8", "aes-256-cfb8", 32},
    {"aes_128_cfb128", "aes-128-cfb", 16}, {"aes_192_cfb128", "aes-192-cfb", 24},
    {"aes_256_cfb128", "aes-256-cfb", 32}, {"aes_128_ecb", "aes-128-ecb", 16},
    {"aes_192_ecb", "aes-192-ecb", 24},  {"aes_256_ecb", "aes-256-ecb", 32},
    {"aes_128_ctr", "aes-128-ctr", 16},  {"aes_192_ctr", "aes-192-ctr", 24},
    {"aes_256_ctr", "aes-256-ctr", 32},  {"chacha20", "chacha20", 32},
    {"chacha20_poly1305", "chacha20-poly1305", 0}, {"aes_128_gcm", "aes-128-gcm", 16},
    {"aes_192_gcm", "aes-192-gcm", 24},  {"aes_256_gcm", "aes-256-gcm", 32},
    {"aes_128_ccm", "aes-128-ccm", 16},  {"aes_192_ccm", "aes-192-ccm", 24},
    {"aes_256_ccm", "aes-256-ccm", 32},
};

class MacState final : public MagicObject {
public:
    explicit MacState(EVP_MAC_CTX* ctx) : ctx(ctx) {}
    ~MacState() override { EVP_MAC_CTX_free(ctx); }
    std::mutex mutex;
    EVP_MAC_CTX* const ctx;
};

// A MAC request checked as erl's NIF checks it, ready for libcrypto: the MAC's name and the
// parameters naming its digest or cipher. On a bad request the exception is raised.
struct MacRequest {
    const char* mac_name = nullptr;
    const char* digest = nullptr;
    const char* cipher = nullptr;
    OSSL_PARAM params[2];
};

bool check_mac(Process* p, Term type, Term sub_type, size_t key_bytes, MacRequest& r) {
    crypto_load_providers();
    const MacType* mac = nullptr;
    bool known = false;
    for (const MacType& m : MAC_TYPES) {
        if (!is_atom(type) || atom_name(type) != m.name) continue;
        known = true;
        if (m.key_bytes == 0 || m.key_bytes == key_bytes) mac = &m;
    }
    if (!mac) {
        if (!known) crypto_badarg(p, 0, "Unknown mac algorithm");
        else crypto_badarg(p, 2, "Bad key length");
        return false;
    }
    r.mac_name = mac->openssl_name;
    if (mac->name == "hmac") {
        const CryptoDigest* d = crypto_digest(sub_type);
        if (!d) return crypto_badarg(p, 1, "Bad digest algorithm for HMAC"), false;
        r.digest = d->openssl_name;
    } else if (mac->name == "cmac") {
        const CipherName* c = nullptr;
        bool cipher_known = false;
        for (const CipherName& n : CIPHERS) {
            if (!is_atom(sub_type) || atom_name(sub_type) != n.name) continue;
            cipher_known = true;
            if (n.key_bytes == 0 || n.key_bytes == key_bytes) c = &n;
        }
        if (!c) {
            if (!cipher_known) crypto_badarg(p, 1, "Unknown cipher");
            else crypto_badarg(p, 2, "Bad key size");
            return false;
        }
        EVP_CIPHER* fetched = EVP_CIPHER_fetch(nullptr, c->openssl_name, "");
        if (!fetched) return crypto_notsup(p, 1, "Unsupported cipher algorithm"), false;
        EVP_CIPHER_free(fetched);
        r.cipher = c->openssl_name;
    }
    size_t n = 0;
    if (r.digest) r.params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(r.digest), 0);
    if (r.cipher) r.params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, const_cast<char*>(r.cipher), 0);
    r.params[n] = OSSL_PARAM_construct_end();
    return true;
}

Term mac_algorithms_0(Process* p, const Term*) {
    // OTP lists them in reverse table order.
    Term names[] = {atom("cmac"), atom("hmac"), atom("poly1305")};
    return make_list_from(*p, names, 3);
}

// mac_nif(Type, SubType, Key, Text): the MAC of Text in one call.
Term mac_nif_4(Process* p, const Term* a) {
    std::vector<uint8_t> key, text;
    if (!crypto_iolist_bytes(a[3], text)) return crypto_badarg(p, 3, "Bad text");
    if (text.size() > INT_MAX) return crypto_badarg(p, 3, "Too long text");
    if (!crypto_iolist_bytes(a[2], key)) return crypto_badarg(p, 2, "Bad key");
    MacRequest r;
    if (!check_mac(p, a[0], a[1], key.size(), r)) return NON_VALUE;
    size_t size = 0;
    unsigned char* out = EVP_Q_mac(nullptr, r.mac_name, nullptr, r.cipher ? r.cipher : r.digest, nullptr,
                                   key.data(), key.size(), text.data(), text.size(), nullptr, 0, &size);
    if (!out) return crypto_failed(p, "Couldn't get mac");
    Term result = make_binary(*p, out, size);
    OPENSSL_free(out);
    crypto_charge(p, text.size());
    return result;
}

Term mac_init_nif_3(Process* p, const Term* a) {
    std::vector<uint8_t> key;
    if (!crypto_iolist_bytes(a[2], key)) return crypto_badarg(p, 2, "Bad key");
    MacRequest r;
    if (!check_mac(p, a[0], a[1], key.size(), r)) return NON_VALUE;
    EVP_MAC* mac = EVP_MAC_fetch(nullptr, r.mac_name, nullptr);
    if (!mac) return crypto_notsup(p, 0, "Unsupported mac algorithm");
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);  // the context keeps its own reference
    if (!ctx) return crypto_failed(p, "Can't create EVP_MAC_CTX");
    if (!EVP_MAC_init(ctx, key.data(), key.size(), r.params)) {
        EVP_MAC_CTX_free(ctx);
        return crypto_failed(p, "Can't initialize EVP_MAC_CTX");
    }
    return make_magic_ref(*p, new MacState(ctx));
}

Term mac_update_nif_2(Process* p, const Term* a) {
    std::vector<uint8_t> text;
    if (!crypto_iolist_bytes(a[1], text)) return crypto_badarg(p, 1, "Bad text");
    if (text.size() > INT_MAX) return crypto_badarg(p, 1, "Too long text");
    auto* state = magic_cast<MacState>(a[0]);
    if (!state) return crypto_badarg(p, 0, "Bad ref");
    std::lock_guard lock(state->mutex);
    if (!EVP_MAC_update(state->ctx, text.data(), text.size())) return crypto_failed(p, "mac update");
    crypto_charge(p, text.size());
    return a[0];
}

Term mac_final_nif_1(Process* p, const Term* a) {
    auto* state = magic_cast<MacState>(a[0]);
    if (!state) return crypto_badarg(p, 0, "Bad ref");
    std::lock_guard lock(state->mutex);
    size_t size = 0;
    if (!EVP_MAC_final(state->ctx, nullptr, &size, 0)) return crypto_failed(p, "Can't get sign size");
    std::vector<uint8_t> out(size);
    if (!EVP_MAC_final(state->ctx, out.data(), &size, out.size())) return crypto_failed(p, "Signing");
    return make_binary(*p, out.data(), size);
}

// An unsigned 64-bit integer, as enif_get_uint64 reads it.
bool get_uint64(Term t, uint64_t& out) {
    if (is_small(t)) return small_value(t) >= 0 && (out = uint64_t(small_value(t)), true);
    if (!is_big(t) || int_sign(t) < 0 || big_limb_count(t) != 1) return false;
    out = big_limbs(t)[0];
    return true;
}

// pbkdf2_hmac_nif(Digest, Pass, Salt, Iterations, KeyLength). It runs to the end in one call:
// erl runs it on a dirty scheduler, which beamvm does not have.
Term pbkdf2_hmac_nif_5(Process* p, const Term* a) {
    constexpr size_t MAX_KEY_BYTES = size_t(1) << 30;
    const CryptoDigest* d = crypto_digest(a[0]);
    if (!d) return crypto_badarg(p, 0, "Bad digest type");
    if (!d->md) return crypto_badarg(p, 0, "md.p is not NULL");
    static constexpr std::string_view ELIGIBLE[] = {"sha", "sha224", "sha256", "sha384", "sha512"};
    if (std::find(std::begin(ELIGIBLE), std::end(ELIGIBLE), d->name) == std::end(ELIGIBLE))
        return crypto_badarg(p, 0, "Not eligible digest type");
    if (!is_binary(a[1])) return crypto_badarg(p, 1, "Not binary");
    if (!is_binary(a[2])) return crypto_badarg(p, 2, "Not binary");
    uint64_t iterations, key_len;
    if (!get_uint64(a[3], iterations)) return crypto_badarg(p, 3, "Not integer");
    if (iterations < 1) return crypto_badarg(p, 3, "Must be > 0");
    if (!get_uint64(a[4], key_len)) return crypto_badarg(p, 4, "Not integer");
    if (key_len < 1) return crypto_badarg(p, 4, "Must be > 0");
    if (key_len > MAX_KEY_BYTES || iterations > INT_MAX) return crypto_failed(p, "Can't allocate binary");
    std::string pass_scratch, salt_scratch;
    std::string_view pass = binary_bytes(a[1], pass_scratch), salt = binary_bytes(a[2], salt_scratch);
    std::vector<uint8_t> out(key_len);
    if (!PKCS5_PBKDF2_HMAC(pass.data(), int(pass.size()), reinterpret_cast<const unsigned char*>(salt.data()),
                           int(salt.size()), int(iterations), d->md, int(out.size()), out.data()))
        return crypto_failed(p, "Low-level call failed");
    p->reductions += int64_t(iterations);
    return make_binary(*p, out.data(), out.size());
}

constexpr BifSpec table[] = {
    {"crypto", "mac_algorithms", 0, &mac_algorithms_0},
    {"crypto", "mac_nif", 4, &mac_nif_4},
    {"crypto", "mac_init_nif", 3, &mac_init_nif_3},
    {"crypto", "mac_update_nif", 2, &mac_update_nif_2},
    {"crypto", "mac_final_nif", 1, &mac_final_nif_1},
    {"crypto", "pbkdf2_hmac_nif", 5, &pbkdf2_hmac_nif_5},
};

}  // namespace

std::span<const BifSpec> crypto_mac_bifs() { return table; }

}  // namespace beam
