// crypto's byte utilities (OTP's crypto.erl: exor/2, hash_equals/2): xor of two byte strings
// and libcrypto's constant-time comparison.
#include <openssl/crypto.h>

#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_common.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

// do_exor(Data1, Data2): byte-wise xor of two iolists of the same size.
Term do_exor_2(Process* p, const Term* a) {
    std::vector<uint8_t> x, y;
    if (!iolist_to_bytes(a[0], x) || !iolist_to_bytes(a[1], y) || x.size() != y.size()) return p->badarg();
    uint8_t* data;
    Term bin = make_binary_uninit(*p, x.size(), &data);
    for (size_t i = 0; i < x.size(); ++i) data[i] = x[i] ^ y[i];
    crypto_charge(p, x.size());
    return bin;
}

// hash_equals_nif(A, B): constant-time comparison of two binaries of the same size.
Term hash_equals_nif_2(Process* p, const Term* a) {
    if (!is_binary(a[0]) || !is_binary(a[1])) return p->badarg();
    std::string sa, sb;
    std::string_view x = binary_bytes(a[0], sa), y = binary_bytes(a[1], sb);
    if (x.size() != y.size()) return p->badarg();
    return make_bool(CRYPTO_memcmp(x.data(), y.data(), x.size()) == 0);
}

constexpr BifSpec table[] = {
    {"crypto", "do_exor", 2, &do_exor_2},
    {"crypto", "hash_equals_nif", 2, &hash_equals_nif_2},
};

}  // namespace

std::span<const BifSpec> crypto_bytes_bifs() { return table; }

}  // namespace beam
