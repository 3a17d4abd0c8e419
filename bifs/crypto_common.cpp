// Error terms and the digest table shared by crypto's natives (bifs/crypto_common.hpp).
#include "bifs/crypto_common.hpp"

#include <algorithm>
#include <climits>
#include <array>

#include <openssl/provider.h>

#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"

namespace beam {

namespace {

constexpr int64_t SLICE_REDUCTIONS = 4000;
constexpr size_t MAX_BYTES_TO_NIF = 20000;  // crypto.erl's ?MAX_BYTES_TO_NIF

std::string_view base_name(std::string_view path) {
    size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The digests crypto's NIF knows, with their OpenSSL 3 names (the same fetch erl does, so
// what the library lacks is missing in both).
struct DigestTable {
    std::array<CryptoDigest, 14> digests{{
        {"md4", "MD4", nullptr},           {"md5", "MD5", nullptr},
        {"ripemd160", "RIPEMD160", nullptr}, {"sha", "SHA1", nullptr},
        {"sha224", "SHA2-224", nullptr},   {"sha256", "SHA2-256", nullptr},
        {"sha384", "SHA2-384", nullptr},   {"sha512", "SHA2-512", nullptr},
        {"sha3_224", "SHA3-224", nullptr}, {"sha3_256", "SHA3-256", nullptr},
        {"sha3_384", "SHA3-384", nullptr}, {"sha3_512", "SHA3-512", nullptr},
        {"blake2b", "BLAKE2b512", nullptr}, {"blake2s", "BLAKE2s256", nullptr},
    }};
    // Fetched once, kept for the life of the program (as erl's NIF does at load).
    DigestTable() {
        crypto_load_providers();
        for (CryptoDigest& d : digests) d.md = EVP_MD_fetch(nullptr, d.openssl_name, "");
    }
};

const DigestTable& digest_table() {
    static const DigestTable table;
    return table;
}

}  // namespace

void crypto_load_providers() {
    // erl's crypto loads OpenSSL's default and base providers, and the legacy one where it
    // exists (MD4, DES, Blowfish, RC2); so does beamvm, once, so both offer the same algorithms.
    static const bool loaded = [] {
        OSSL_PROVIDER_load(nullptr, "default");
        OSSL_PROVIDER_load(nullptr, "base");
        OSSL_PROVIDER_load(nullptr, "legacy");
        return true;
    }();
    (void)loaded;
}

Term crypto_raise(Process* p, Term id, int arg, std::string_view message, std::source_location where) {
    Term info = map_from_pairs(*p, {
                                       {atom("c_file_name"), make_string(*p, base_name(where.file_name()))},
                                       {atom("c_file_line_num"), make_integer(*p, int64_t(where.line()))},
                                       {atom("c_function_arg_num"), make_integer(*p, arg)},
                                   });
    return p->error(make_tuple(*p, {id, info, make_string(*p, message)}));
}

Term crypto_notsup(Process* p, int arg, std::string_view message, std::source_location where) {
    return crypto_raise(p, atom("notsup"), arg, message, where);
}

std::span<const CryptoDigest> crypto_digests() { return digest_table().digests; }

const CryptoDigest* crypto_digest(Term t) {
    if (!is_atom(t)) return nullptr;
    std::string_view name = atom_name(t);
    for (const CryptoDigest& d : crypto_digests())
        if (d.name == name) return &d;
    return nullptr;
}

bool crypto_iolist_bytes(Term t, std::vector<uint8_t>& out) { return iolist_to_bytes(t, out); }

void crypto_charge(Process* p, size_t bytes) {
    p->reductions += int64_t(std::min(bytes, MAX_BYTES_TO_NIF) * SLICE_REDUCTIONS / MAX_BYTES_TO_NIF);
}

Bn bn_from_binary(Term t) {
    if (!is_binary(t)) return nullptr;
    std::string scratch;
    std::string_view b = binary_bytes(t, scratch);
    if (b.size() > INT_MAX) return nullptr;
    return Bn(BN_bin2bn(reinterpret_cast<const unsigned char*>(b.data()), int(b.size()), nullptr));
}

}  // namespace beam
