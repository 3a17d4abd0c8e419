// MD5 (RFC 1321), shared by the loader (module_info(md5)) and erlang:md5/1, md5_init/0,
// md5_update/2, md5_final/1. Incremental, so input can be fed in pieces without copying.
//
// The state follows the RFC's reference code, which OTP uses (erts' erl_md5.c), down to the
// bytes of its buffer: md5_init/update hand the whole context to Erlang as an 88-byte binary
// (OTP's MD5_CTX: state[4], bit count[2], buffer[64], little-endian words), so which input
// bytes remain in the buffer is observable. As there, the first (partial) block of each update
// goes through the buffer and the following whole blocks are hashed in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace beam {

class Md5 {
public:
    static constexpr size_t CONTEXT_BYTES = 88;  // sizeof(MD5_CTX) in erts

    Md5();
    void update(std::span<const uint8_t> data);
    void finish(uint8_t out[16]);

    // OTP's context binary: write this state as one, or read one back.
    void save(uint8_t out[CONTEXT_BYTES]) const;
    static Md5 restore(const uint8_t in[CONTEXT_BYTES]);

private:
    void block(const uint8_t* p);
    uint32_t state_[4];
    uint64_t bits_ = 0;  // input length in bits, modulo 2^64 (the context's count[2])
    uint8_t buffer_[64] = {};
};

}  // namespace beam
