// OTP's zlib natives for compression: deflateInit_nif/6, deflateSetDictionary_nif/2,
// deflateReset_nif/1, deflateParams_nif/3, deflate_nif/4, deflateEnd_nif/1, on the system
// zlib (the same library erl uses on Debian, so output bytes match erl's). zlib.erl checks
// and translates the options (level, strategy, window bits...) before they get here.
#include <string>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/zlib_stream.hpp"
#include "vm/bignum.hpp"

namespace beam {
namespace {

// The stream behind a[0], controlled by the caller and set up for deflate; else NON_VALUE's
// reason is set and null returned.
ZStream* deflating(Process* p, Term t, std::unique_lock<std::mutex>& lock) {
    ZStream* z = zstream_of(p, t, lock);
    if (z && z->state != ZStream::State::Deflate) {
        p->error(zlib_atom_not_initialized());
        return nullptr;
    }
    return z;
}

Term deflateInit_nif_6(Process* p, const Term* a) {
    int level, method, window_bits, mem_level, strategy;
    if (!magic_cast<ZStream>(a[0]) || !zlib_int_arg(a[1], level) || !zlib_int_arg(a[2], method) ||
        !zlib_int_arg(a[3], window_bits) || !zlib_int_arg(a[4], mem_level) || !zlib_int_arg(a[5], strategy))
        return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->state != ZStream::State::None) return p->error(zlib_atom_already_initialized());
    int res = deflateInit2(&z->zs, level, method, window_bits, mem_level, strategy);
    if (res == Z_OK) {
        z->state = ZStream::State::Deflate;
        z->eos_seen = false;
        z->is_raw = window_bits < 0;
        z->want_input_crc = z->is_raw;
        z->want_output_crc = false;
        z->input_crc = z->output_crc = crc32(0, Z_NULL, 0);
    }
    return zlib_result(p, res);
}

Term deflateSetDictionary_nif_2(Process* p, const Term* a) {
    std::vector<uint8_t> dict;
    if (!magic_cast<ZStream>(a[0]) || !iolist_to_bytes(a[1], dict)) return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = deflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    int res = deflateSetDictionary(&z->zs, dict.data(), uInt(dict.size()));
    if (res != Z_OK) return zlib_result(p, res);
    // A raw stream keeps no checksum; erl's NIF computes one over the dictionary, starting
    // from 0 rather than Adler-32's initial 1, and so does beamvm (the value is observable).
    uLong checksum = z->is_raw ? adler32(0, dict.data(), uInt(dict.size())) : z->zs.adler;
    return make_integer(*p, int32_t(checksum));  // a C int in erl's NIF
}

Term deflateReset_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = deflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    int res = deflateReset(&z->zs);
    z->input_crc = crc32(0, Z_NULL, 0);
    z->eos_seen = false;
    z->reset_input();
    return zlib_result(p, res);
}

Term deflateEnd_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = deflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    int res = deflateEnd(&z->zs);
    if (res == Z_OK && z->input_bytes > 0) res = Z_DATA_ERROR;  // input never compressed
    z->reset_input();
    z->state = ZStream::State::None;
    return zlib_result(p, res);
}

// zlib.erl has flushed everything (sync) before this call, so deflateParams has no pending
// output to write; a one-byte buffer catches the case where it would (erl does the same, and
// it also keeps zlib 1.2.11 from answering Z_BUF_ERROR to an empty output buffer).
Term deflateParams_nif_3(Process* p, const Term* a) {
    int level, strategy;
    if (!magic_cast<ZStream>(a[0]) || !zlib_int_arg(a[1], level) || !zlib_int_arg(a[2], strategy))
        return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = deflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    Bytef spare;
    z->zs.next_out = &spare;
    z->zs.avail_out = 1;
    int res = deflateParams(&z->zs, level, strategy);
    if (z->zs.avail_out == 0) return zlib_result(p, Z_STREAM_ERROR);
    return zlib_result(p, res);
}

Term deflate_nif_4(Process* p, const Term* a) {
    if (!magic_cast<ZStream>(a[0])) return p->badarg();
    int ignored;
    for (int i = 1; i < 4; ++i)
        if (!zlib_int_arg(a[i], ignored)) return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = deflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    return zlib_codec_step(p, *z, &deflate, a + 1);
}

constexpr BifSpec table[] = {
    {"zlib", "deflateInit_nif", 6, &deflateInit_nif_6},
    {"zlib", "deflateSetDictionary_nif", 2, &deflateSetDictionary_nif_2},
    {"zlib", "deflateReset_nif", 1, &deflateReset_nif_1},
    {"zlib", "deflateEnd_nif", 1, &deflateEnd_nif_1},
    {"zlib", "deflateParams_nif", 3, &deflateParams_nif_3},
    {"zlib", "deflate_nif", 4, &deflate_nif_4},
};

}  // namespace

std::span<const BifSpec> zlib_deflate_bifs() { return table; }

}  // namespace beam
