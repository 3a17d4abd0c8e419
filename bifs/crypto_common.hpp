// What crypto's natives share (bifs/crypto_*.cpp): the error terms OTP's crypto NIF raises,
// and the digests by name, fetched once from the system's libcrypto (OpenSSL 3, as erl's
// crypto on Debian uses).
#pragma once

#include <openssl/bn.h>
#include <openssl/evp.h>

#include <memory>
#include <source_location>
#include <span>
#include <string_view>
#include <vector>

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

// Raises {Id, #{c_file_name, c_file_line_num, c_function_arg_num}, Message} as crypto's NIF
// does; crypto.erl's ?nif_call turns it into {Id, {File, Line}, Message} with the Erlang
// argument number in error_info. The file and line are beamvm's (erl names its C source).
// `arg` is 0-based, -1 when no argument is at fault. Returns NON_VALUE.
Term crypto_raise(Process* p, Term id, int arg, std::string_view message,
                  std::source_location where = std::source_location::current());
inline Term crypto_badarg(Process* p, int arg, std::string_view message,
                          std::source_location where = std::source_location::current()) {
    return crypto_raise(p, am::badarg, arg, message, where);
}
Term crypto_notsup(Process* p, int arg, std::string_view message,
                   std::source_location where = std::source_location::current());
inline Term crypto_failed(Process* p, std::string_view message,
                          std::source_location where = std::source_location::current()) {
    return crypto_raise(p, am::error, -1, message, where);
}

// Loads the OpenSSL providers erl's crypto loads (once); call before fetching an algorithm.
void crypto_load_providers();

// A digest crypto knows by name (crypto:hash/2's Type). `md` is null when the library here
// lacks it (crypto then says notsup).
struct CryptoDigest {
    std::string_view name;      // the Erlang atom's text
    const char* openssl_name;   // for EVP_MD_fetch
    const EVP_MD* md;
};
// Every digest crypto names, in OTP's order (its supports(hashs) lists them reversed).
std::span<const CryptoDigest> crypto_digests();
// The digest named by atom `t`, or null when crypto knows no such name.
const CryptoDigest* crypto_digest(Term t);

// The bytes of an iolist or binary (false if `t` is neither).
bool crypto_iolist_bytes(Term t, std::vector<uint8_t>& out);

// Reductions for processing `bytes`: a whole time slice per 20000 bytes (crypto.erl cuts its
// input in pieces of that size, MAX_BYTES_TO_NIF), as erl's NIF charges.
void crypto_charge(Process* p, size_t bytes);

// OpenSSL big numbers, freed with their owner.
struct BnFree {
    void operator()(BIGNUM* b) const { BN_free(b); }
};
using Bn = std::unique_ptr<BIGNUM, BnFree>;
// An unsigned big-endian number in a binary (null when `t` is not one).
Bn bn_from_binary(Term t);

}  // namespace beam
