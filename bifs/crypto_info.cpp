// What crypto says about itself (OTP's crypto.erl: info_lib/0, info/0, info_fips/0,
// enable_fips_mode/1, supports/0,1). The lists name only what beamvm's natives provide:
// hashes, MACs; no ciphers, public-key algorithms, curves or RSA options
// (docs/natives.md lists what is left out).
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/provider.h>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_common.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"

namespace beam {
namespace {

// [{<<"OpenSSL">>, VersionNumber, <<"OpenSSL 3.0.x ...">>}]: the number of the headers beamvm
// was built with, the text of the library it runs with (as erl reports them).
Term info_lib_0(Process* p, const Term*) {
    Term lib = make_tuple(*p, {make_binary(*p, "OpenSSL"), make_integer(*p, int64_t(OPENSSL_VERSION_NUMBER)),
                               make_binary(*p, OpenSSL_version(OPENSSL_VERSION))});
    return make_list_from(*p, &lib, 1);
}

Term info_nif_0(Process* p, const Term*) {
    return map_from_pairs(*p, {
                                  {atom("compile_type"), atom("normal")},
                                  {atom("link_type"), atom("dynamic")},
                                  {atom("cryptolib_version_compiled"), make_string(*p, OPENSSL_VERSION_TEXT)},
                                  {atom("cryptolib_version_linked"), make_string(*p, OpenSSL_version(OPENSSL_VERSION))},
                                  {atom("fips_provider_available"),
                                   make_bool(OSSL_PROVIDER_available(nullptr, "fips") == 1)},
                              });
}

// beamvm has no FIPS mode (nor has Debian's erl): enabling fails, disabling succeeds.
Term info_fips_0(Process*, const Term*) { return atom("not_supported"); }

Term enable_fips_mode_nif_1(Process* p, const Term* a) {
    if (a[0] == am::true_) return am::false_;
    if (a[0] == am::false_) return am::true_;
    return p->badarg();
}

Term empty_list_0(Process*, const Term*) { return NIL; }

constexpr BifSpec table[] = {
    {"crypto", "info_lib", 0, &info_lib_0},
    {"crypto", "info_nif", 0, &info_nif_0},
    {"crypto", "info_fips", 0, &info_fips_0},
    {"crypto", "enable_fips_mode_nif", 1, &enable_fips_mode_nif_1},
    {"crypto", "pubkey_algorithms", 0, &empty_list_0},
    {"crypto", "cipher_algorithms", 0, &empty_list_0},
    {"crypto", "curve_algorithms", 0, &empty_list_0},
    {"crypto", "rsa_opts_algorithms", 0, &empty_list_0},
};

}  // namespace

std::span<const BifSpec> crypto_info_bifs() { return table; }

}  // namespace beam
