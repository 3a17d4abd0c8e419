// OTP's zlib natives for decompression: inflateInit_nif/3, inflateSetDictionary_nif/2,
// inflateGetDictionary_nif/1, inflateReset_nif/1, inflate_nif/4, inflateEnd_nif/1, on the
// system zlib. What follows the end of a compressed stream is the stream's EoSBehavior
// (zlib:inflateInit/3): an error, a fresh stream (gunzip of concatenated members), or cut off.
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/zlib_stream.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

constexpr size_t INFLATE_DICT_BYTES = 32768;  // the largest window zlib keeps

ZStream* inflating(Process* p, Term t, std::unique_lock<std::mutex>& lock) {
    ZStream* z = zstream_of(p, t, lock);
    if (z && z->state != ZStream::State::Inflate) {
        p->error(zlib_atom_not_initialized());
        return nullptr;
    }
    return z;
}

Term inflateInit_nif_3(Process* p, const Term* a) {
    int window_bits, eos;
    if (!magic_cast<ZStream>(a[0]) || !zlib_int_arg(a[1], window_bits) || !zlib_int_arg(a[2], eos))
        return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = zstream_of(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->state != ZStream::State::None) return p->error(zlib_atom_already_initialized());
    int res = inflateInit2(&z->zs, window_bits);
    if (res == Z_OK) {
        z->state = ZStream::State::Inflate;
        // zlib.erl passes only 0..2 (it rejects other behaviours with bad_eos_behavior).
        z->eos_behavior = eos == 0 ? ZStream::EndOfStream::Error
                          : eos == 1 ? ZStream::EndOfStream::Reset
                                     : ZStream::EndOfStream::Cut;
        z->eos_seen = false;
        z->is_raw = window_bits < 0;
        z->want_output_crc = z->is_raw;
        z->want_input_crc = false;
        z->input_crc = z->output_crc = crc32(0, Z_NULL, 0);
    }
    return zlib_result(p, res);
}

Term inflateSetDictionary_nif_2(Process* p, const Term* a) {
    std::vector<uint8_t> dict;
    if (!magic_cast<ZStream>(a[0]) || !iolist_to_bytes(a[1], dict)) return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = inflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    return zlib_result(p, inflateSetDictionary(&z->zs, dict.data(), uInt(dict.size())));
}

Term inflateGetDictionary_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = inflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    std::vector<Bytef> dict(INFLATE_DICT_BYTES);
    uInt len = 0;
    int res = inflateGetDictionary(&z->zs, dict.data(), &len);
    if (res < 0) return zlib_result(p, res);
    return make_binary(*p, dict.data(), len);
}

Term inflateReset_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = inflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    int res = inflateReset(&z->zs);
    z->output_crc = crc32(0, Z_NULL, 0);
    z->eos_seen = false;
    z->reset_input();
    return zlib_result(p, res);
}

Term inflateEnd_nif_1(Process* p, const Term* a) {
    std::unique_lock<std::mutex> lock;
    ZStream* z = inflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    int res = inflateEnd(&z->zs);
    // A stream that never reached its end, or input left over: the data was bad.
    if (res == Z_OK && (!z->eos_seen || z->input_bytes > 0)) res = Z_DATA_ERROR;
    z->reset_input();
    z->state = ZStream::State::None;
    return zlib_result(p, res);
}

Term inflate_nif_4(Process* p, const Term* a) {
    if (!magic_cast<ZStream>(a[0])) return p->badarg();
    int ignored;
    for (int i = 1; i < 4; ++i)
        if (!zlib_int_arg(a[i], ignored)) return p->badarg();
    std::unique_lock<std::mutex> lock;
    ZStream* z = inflating(p, a[0], lock);
    if (!z) return NON_VALUE;
    if (z->eos_seen && z->input_bytes > 0) {
        switch (z->eos_behavior) {
        case ZStream::EndOfStream::Error: return zlib_result(p, Z_DATA_ERROR);
        case ZStream::EndOfStream::Reset: {
            int res = inflateReset(&z->zs);
            if (res != Z_OK) return zlib_result(p, res);
            z->eos_seen = false;
            break;
        }
        case ZStream::EndOfStream::Cut: z->reset_input(); break;
        }
    }
    return zlib_codec_step(p, *z, &inflate, a + 1);
}

constexpr BifSpec table[] = {
    {"zlib", "inflateInit_nif", 3, &inflateInit_nif_3},
    {"zlib", "inflateSetDictionary_nif", 2, &inflateSetDictionary_nif_2},
    {"zlib", "inflateGetDictionary_nif", 1, &inflateGetDictionary_nif_1},
    {"zlib", "inflateReset_nif", 1, &inflateReset_nif_1},
    {"zlib", "inflateEnd_nif", 1, &inflateEnd_nif_1},
    {"zlib", "inflate_nif", 4, &inflate_nif_4},
};

}  // namespace

std::span<const BifSpec> zlib_inflate_bifs() { return table; }

}  // namespace beam
