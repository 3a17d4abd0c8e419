// crypto's random-number natives (OTP's crypto.erl: strong_rand_bytes/1, rand_seed/1,
// rand_uniform/2, and strong_rand_range, which the crypto rand plugin of rand:seed/1 uses),
// on libcrypto's RAND_bytes and BN_rand_range.
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <climits>
#include <memory>
#include <string>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_common.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {



// An mpint: a 4-byte big-endian length, then that many bytes of the number.
Bn bn_from_mpint(Term t) {
    if (!is_binary(t)) return nullptr;
    std::string scratch;
    std::string_view b = binary_bytes(t, scratch);
    if (b.size() < 4 || b.size() > size_t(INT_MAX) - 4) return nullptr;
    auto* u = reinterpret_cast<const unsigned char*>(b.data());
    int32_t len = int32_t(uint32_t(u[0]) << 24 | uint32_t(u[1]) << 16 | uint32_t(u[2]) << 8 | u[3]);
    if (len != int32_t(b.size() - 4)) return nullptr;
    return Bn(BN_bin2bn(u + 4, len, nullptr));
}

Term strong_rand_bytes_nif_1(Process* p, const Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0 || small_value(a[0]) > INT_MAX) return p->badarg();
    size_t n = size_t(small_value(a[0]));
    uint8_t* data;
    Term bin = make_binary_uninit(*p, n, &data);
    if (RAND_bytes(data, int(n)) != 1) return am::false_;  // crypto.erl: low_entropy
    crypto_charge(p, n);
    return bin;
}

Term strong_rand_range_nif_1(Process* p, const Term* a) {
    Bn range = bn_from_binary(a[0]);
    if (!range) return p->badarg();
    Bn r(BN_new());
    if (!r || !BN_rand_range(r.get(), range.get())) return am::false_;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, size_t(BN_num_bytes(r.get())), &data);
    BN_bn2bin(r.get(), data);
    return bin;
}

// rand_uniform_nif(From, To): an mpint in [From, To).
Term rand_uniform_nif_2(Process* p, const Term* a) {
    Bn from = bn_from_mpint(a[0]), to = bn_from_mpint(a[1]);
    Bn span(BN_new()), r(BN_new());
    if (!from || !to || !span || !r || !BN_sub(span.get(), to.get(), from.get()) ||
        !BN_rand_range(r.get(), span.get()) || !BN_add(r.get(), r.get(), from.get()))
        return p->badarg();
    size_t n = size_t(BN_num_bytes(r.get()));
    uint8_t* data;
    Term bin = make_binary_uninit(*p, n + 4, &data);
    data[0] = uint8_t(n >> 24), data[1] = uint8_t(n >> 16), data[2] = uint8_t(n >> 8), data[3] = uint8_t(n);
    BN_bn2bin(r.get(), data + 4);
    return bin;
}

Term rand_seed_nif_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    std::string scratch;
    std::string_view seed = binary_bytes(a[0], scratch);
    if (seed.size() > INT_MAX) return p->badarg();
    RAND_seed(seed.data(), int(seed.size()));
    return am::ok;
}

constexpr BifSpec table[] = {
    {"crypto", "strong_rand_bytes_nif", 1, &strong_rand_bytes_nif_1},
    {"crypto", "strong_rand_range_nif", 1, &strong_rand_range_nif_1},
    {"crypto", "rand_uniform_nif", 2, &rand_uniform_nif_2},
    {"crypto", "rand_seed_nif", 1, &rand_seed_nif_1},
};

}  // namespace

std::span<const BifSpec> crypto_rand_bifs() { return table; }

}  // namespace beam
