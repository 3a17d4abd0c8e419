// crypto's modular exponentiation (OTP's crypto.erl: mod_pow/3) on libcrypto's BN_mod_exp.
#include <openssl/bn.h>

#include <climits>
#include <memory>
#include <string>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_common.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

struct BnCtxFree {
    void operator()(BN_CTX* c) const { BN_CTX_free(c); }
};


// mod_exp_nif(Base, Exponent, Modulus, Header): Base^Exponent mod Modulus as big-endian bytes,
// or with Header 4 as an mpint (4-byte length, a zero byte first when the top bit is set).
Term mod_exp_nif_4(Process* p, const Term* a) {
    Bn base = bn_from_binary(a[0]), exponent = bn_from_binary(a[1]), modulus = bn_from_binary(a[2]);
    if (!base || !exponent || !modulus || !is_small(a[3])) return p->badarg();
    int64_t header = small_value(a[3]);
    if (header != 0 && header != 4) return p->badarg();
    Bn result(BN_new());
    std::unique_ptr<BN_CTX, BnCtxFree> ctx(BN_CTX_new());
    if (!result || !ctx || !BN_mod_exp(result.get(), base.get(), exponent.get(), modulus.get(), ctx.get()))
        return p->badarg();
    int len = BN_num_bytes(result.get());
    if (len < 0 || len > INT_MAX / 8) return p->badarg();
    size_t extra = header != 0 && len > 0 && BN_is_bit_set(result.get(), len * 8 - 1) ? 1 : 0;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, size_t(header) + extra + size_t(len), &data);
    if (header != 0) {
        uint32_t n = uint32_t(extra + size_t(len));
        data[0] = uint8_t(n >> 24), data[1] = uint8_t(n >> 16), data[2] = uint8_t(n >> 8), data[3] = uint8_t(n);
        if (extra) data[4] = 0;
        data += header + extra;
    }
    BN_bn2bin(result.get(), data);
    p->reductions += BN_num_bits(exponent.get());
    return bin;
}

constexpr BifSpec table[] = {
    {"crypto", "mod_exp_nif", 4, &mod_exp_nif_4},
};

}  // namespace

std::span<const BifSpec> crypto_bignum_bifs() { return table; }

}  // namespace beam
