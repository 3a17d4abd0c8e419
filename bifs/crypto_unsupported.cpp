// The natives of OTP's crypto module that beamvm leaves out (ciphers, public-key operations,
// key exchange, SRP, engines; docs/natives.md). Each raises what crypto's NIF raises
// for an algorithm the library lacks, {notsup, #{c_file_name ...}, Message}, naming the
// function, so crypto.erl reports {notsup, {File, Line}, "... crypto:Name/Arity"} instead
// of the stub's nif_not_loaded.
#include <array>
#include <string>
#include <utility>

#include "bifs/bif_families.hpp"
#include "bifs/crypto_common.hpp"

namespace beam {
namespace {

struct Left {
    std::string_view name;
    uint8_t arity;
};
constexpr Left LEFT_OUT[] = {
    {"cipher_info_nif", 1},         {"ng_crypto_init_nif", 4},       {"ng_crypto_update_nif", 2},
    {"ng_crypto_update_nif", 3},    {"ng_crypto_final_nif", 1},      {"ng_crypto_get_data_nif", 1},
    {"ng_crypto_one_time_nif", 5},  {"aead_cipher_nif", 7},
    {"pkey_sign_nif", 5},           {"pkey_verify_nif", 6},          {"pkey_crypt_nif", 6},
    {"rsa_generate_key_nif", 2},    {"dh_generate_key_nif", 4},      {"dh_compute_key_nif", 3},
    {"evp_compute_key_nif", 3},     {"evp_generate_key_nif", 2},     {"privkey_to_pubkey_nif", 2},
    {"srp_value_B_nif", 5},         {"srp_user_secret_nif", 7},      {"srp_host_secret_nif", 5},
    {"ec_generate_key_nif", 2},     {"ecdh_compute_key_nif", 3},     {"engine_by_id_nif", 1},
    {"engine_init_nif", 1},         {"engine_free_nif", 1},          {"engine_load_dynamic_nif", 0},
    {"engine_ctrl_cmd_strings_nif", 3}, {"engine_register_nif", 2},  {"engine_unregister_nif", 2},
    {"engine_add_nif", 1},          {"engine_remove_nif", 1},        {"engine_get_first_nif", 0},
    {"engine_get_next_nif", 1},     {"engine_get_id_nif", 1},        {"engine_get_name_nif", 1},
    {"engine_get_all_methods_nif", 0}, {"ensure_engine_loaded_nif", 2},
};
constexpr size_t LEFT_OUT_COUNT = std::size(LEFT_OUT);

template <size_t I>
Term left_out(Process* p, const Term*) {
    const Left& f = LEFT_OUT[I];
    return crypto_notsup(p, -1, "Unsupported in beamvm: crypto:" + std::string(f.name) + "/" + std::to_string(f.arity));
}

template <size_t... I>
constexpr std::array<BifSpec, sizeof...(I)> make_table(std::index_sequence<I...>) {
    return {BifSpec{"crypto", LEFT_OUT[I].name, LEFT_OUT[I].arity, &left_out<I>}...};
}

constexpr auto table = make_table(std::make_index_sequence<LEFT_OUT_COUNT>());

}  // namespace

std::span<const BifSpec> crypto_unsupported_bifs() { return table; }

}  // namespace beam
