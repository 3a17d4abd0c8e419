// The OpenSSL functions crypto's natives call, each forwarding to libcrypto.so.3 opened at
// run time (see crypto_library.hpp for why). Each definition below has the signature its
// OpenSSL header declares (the compiler checks: a C function declared twice must agree).
#include "bifs/crypto_library.hpp"

#include <dlfcn.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include <cstdio>
#include <cstdlib>

// X(return type, name, parameters, arguments): every libcrypto function beamvm calls.
#define BEAM_CRYPTO_FUNCTIONS(X)                                                                 \
    X(BN_CTX*, BN_CTX_new, (), ())                                                               \
    X(void, BN_CTX_free, (BN_CTX * c), (c))                                                      \
    X(int, BN_add, (BIGNUM * r, const BIGNUM* a, const BIGNUM* b), (r, a, b))                    \
    X(BIGNUM*, BN_bin2bn, (const unsigned char* s, int len, BIGNUM* ret), (s, len, ret))         \
    X(int, BN_bn2bin, (const BIGNUM* a, unsigned char* to), (a, to))                             \
    X(void, BN_free, (BIGNUM * a), (a))                                                          \
    X(int, BN_is_bit_set, (const BIGNUM* a, int n), (a, n))                                      \
    X(int, BN_mod_exp, (BIGNUM * r, const BIGNUM* a, const BIGNUM* p, const BIGNUM* m, BN_CTX* c), \
      (r, a, p, m, c))                                                                           \
    X(BIGNUM*, BN_new, (), ())                                                                   \
    X(int, BN_num_bits, (const BIGNUM* a), (a))                                                  \
    X(int, BN_rand_range, (BIGNUM * r, const BIGNUM* range), (r, range))                         \
    X(int, BN_sub, (BIGNUM * r, const BIGNUM* a, const BIGNUM* b), (r, a, b))                    \
    X(void, CRYPTO_free, (void* p, const char* file, int line), (p, file, line))                 \
    X(int, CRYPTO_memcmp, (const void* a, const void* b, size_t n), (a, b, n))                   \
    X(EVP_CIPHER*, EVP_CIPHER_fetch, (OSSL_LIB_CTX * c, const char* alg, const char* props),     \
      (c, alg, props))                                                                           \
    X(void, EVP_CIPHER_free, (EVP_CIPHER * c), (c))                                              \
    X(int, EVP_Digest,                                                                           \
      (const void* d, size_t n, unsigned char* md, unsigned int* size, const EVP_MD* t, ENGINE* e), \
      (d, n, md, size, t, e))                                                                    \
    X(int, EVP_DigestFinal, (EVP_MD_CTX * c, unsigned char* md, unsigned int* s), (c, md, s))    \
    X(int, EVP_DigestInit, (EVP_MD_CTX * c, const EVP_MD* t), (c, t))                            \
    X(int, EVP_DigestUpdate, (EVP_MD_CTX * c, const void* d, size_t n), (c, d, n))               \
    X(void, EVP_MAC_CTX_free, (EVP_MAC_CTX * c), (c))                                            \
    X(EVP_MAC_CTX*, EVP_MAC_CTX_new, (EVP_MAC * m), (m))                                         \
    X(EVP_MAC*, EVP_MAC_fetch, (OSSL_LIB_CTX * c, const char* alg, const char* props),           \
      (c, alg, props))                                                                           \
    X(int, EVP_MAC_final, (EVP_MAC_CTX * c, unsigned char* out, size_t* outl, size_t size),      \
      (c, out, outl, size))                                                                      \
    X(void, EVP_MAC_free, (EVP_MAC * m), (m))                                                    \
    X(int, EVP_MAC_init, (EVP_MAC_CTX * c, const unsigned char* key, size_t n, const OSSL_PARAM* ps), \
      (c, key, n, ps))                                                                           \
    X(int, EVP_MAC_update, (EVP_MAC_CTX * c, const unsigned char* d, size_t n), (c, d, n))       \
    X(int, EVP_MD_CTX_copy, (EVP_MD_CTX * out, const EVP_MD_CTX* in), (out, in))                \
    X(void, EVP_MD_CTX_free, (EVP_MD_CTX * c), (c))                                              \
    X(EVP_MD_CTX*, EVP_MD_CTX_new, (), ())                                                       \
    X(EVP_MD*, EVP_MD_fetch, (OSSL_LIB_CTX * c, const char* alg, const char* props), (c, alg, props)) \
    X(int, EVP_MD_get_block_size, (const EVP_MD* md), (md))                                      \
    X(int, EVP_MD_get_size, (const EVP_MD* md), (md))                                            \
    X(int, EVP_MD_get_type, (const EVP_MD* md), (md))                                            \
    X(unsigned char*, EVP_Q_mac,                                                                 \
      (OSSL_LIB_CTX * c, const char* name, const char* propq, const char* subalg,                \
       const OSSL_PARAM* ps, const void* key, size_t keylen, const unsigned char* d, size_t n,   \
       unsigned char* out, size_t outsize, size_t* outlen),                                      \
      (c, name, propq, subalg, ps, key, keylen, d, n, out, outsize, outlen))                     \
    X(OSSL_PARAM, OSSL_PARAM_construct_end, (), ())                                              \
    X(OSSL_PARAM, OSSL_PARAM_construct_utf8_string, (const char* key, char* buf, size_t n),      \
      (key, buf, n))                                                                             \
    X(int, OSSL_PROVIDER_available, (OSSL_LIB_CTX * c, const char* name), (c, name))             \
    X(OSSL_PROVIDER*, OSSL_PROVIDER_load, (OSSL_LIB_CTX * c, const char* name), (c, name))       \
    X(const char*, OpenSSL_version, (int type), (type))                                          \
    X(int, PKCS5_PBKDF2_HMAC,                                                                    \
      (const char* pass, int passlen, const unsigned char* salt, int saltlen, int iter,          \
       const EVP_MD* md, int keylen, unsigned char* out),                                        \
      (pass, passlen, salt, saltlen, iter, md, keylen, out))                                     \
    X(int, RAND_bytes, (unsigned char* buf, int n), (buf, n))                                    \
    X(void, RAND_seed, (const void* buf, int n), (buf, n))

namespace beam {
namespace {

constexpr const char* LIBRARY = "libcrypto.so.3";

struct Library {
#define BEAM_CRYPTO_POINTER(ret, name, params, args) decltype(&::name) name = nullptr;
    BEAM_CRYPTO_FUNCTIONS(BEAM_CRYPTO_POINTER)
#undef BEAM_CRYPTO_POINTER
    std::string error;

    Library() {
        // RTLD_LOCAL: libcrypto's symbols stay out of the global namespace, where they would
        // meet this file's forwarding functions of the same names.
        void* handle = dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = dlerror();
            error = std::string("crypto needs ") + LIBRARY + " (OpenSSL 3), which could not be loaded: " +
                    (why ? why : "unknown reason");
            return;
        }
#define BEAM_CRYPTO_LOOKUP(ret, name, params, args)                                                  \
    name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));                                \
    if (!name && error.empty()) error = std::string(LIBRARY) + " has no function " #name " (OpenSSL 3 has)";
        BEAM_CRYPTO_FUNCTIONS(BEAM_CRYPTO_LOOKUP)
#undef BEAM_CRYPTO_LOOKUP
    }
};

const Library& library() {
    static const Library lib;
    return lib;
}

// For a native called without crypto's on_load having checked crypto_library_error() (only
// a unit test can): the natives cannot report the failure as a term, so the VM stops with it.
[[noreturn]] void unusable(const char* name) {
    std::fprintf(stderr, "beamvm: %s called, but %s\n", name, library().error.c_str());
    std::abort();
}

}  // namespace

const std::string& crypto_library_error() { return library().error; }

}  // namespace beam

#define BEAM_CRYPTO_FORWARD(ret, name, params, args)           \
    ret name params {                                          \
        auto f = beam::library().name;                         \
        if (!f) beam::unusable(#name);                         \
        return f args;                                         \
    }
BEAM_CRYPTO_FUNCTIONS(BEAM_CRYPTO_FORWARD)
#undef BEAM_CRYPTO_FORWARD
