#include "loader/beam_inflate.hpp"

#include <algorithm>
#include <climits>
#include <fmt/format.h>
#include <zlib.h>

namespace beam::loader {

namespace {

Error gzip_error(std::string_view why) { return make_error(fmt::format("gzip-compressed beam file: {}", why)); }

// Ends the zlib stream on every return path.
struct Inflater {
    z_stream z{};
    bool ready = false;
    Inflater() { ready = inflateInit2(&z, 16 + MAX_WBITS) == Z_OK; }  // 16 +: gzip wrapper only
    ~Inflater() {
        if (ready) inflateEnd(&z);
    }
};

// A first output size: gzip's trailer ends with the last member's size modulo 2^32, exact
// for the usual single member. Only a hint (the file may lie): output still grows on demand
// and stops at MAX_INFLATED_BEAM.
size_t initial_size(std::span<const uint8_t> in) {
    size_t n = in.size();
    size_t hint = n < 4 ? 0 : size_t{in[n - 4]} | size_t{in[n - 3]} << 8 | size_t{in[n - 2]} << 16 | size_t{in[n - 1]} << 24;
    // Deflate expands at most 1032-fold: a larger claim is a lie, not worth allocating for.
    hint = std::min(hint, n * 1032);
    return std::clamp<size_t>(hint + 1, 4096, MAX_INFLATED_BEAM + 1);  // + 1: room to see the end
}

}  // namespace

bool is_gzip(std::span<const uint8_t> bytes) { return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b; }

Result<std::span<const uint8_t>> plain_beam_bytes(std::span<const uint8_t> bytes, std::vector<uint8_t>& inflated) {
    if (!is_gzip(bytes)) return bytes;
    Inflater inf;
    if (!inf.ready) return gzip_error("zlib could not start");
    z_stream& z = inf.z;
    size_t consumed = 0, produced = 0;
    // One byte more than the limit, so that a stream ending exactly at the limit ends
    // (zlib may want output room before it reports the end) and one byte past it is seen.
    constexpr size_t room = MAX_INFLATED_BEAM + 1;
    inflated.assign(initial_size(bytes), 0);
    auto past_limit = [] {
        return gzip_error(fmt::format("inflates past the {} MiB limit for a module", MAX_INFLATED_BEAM >> 20));
    };
    for (;;) {
        if (produced == inflated.size()) {
            if (produced == room) return past_limit();
            inflated.resize(std::min(room, inflated.size() * 2));
        }
        // zlib counts in uInt (32 bits): feed at most that much per call.
        size_t in_now = std::min<size_t>(bytes.size() - consumed, UINT_MAX);
        size_t out_now = std::min<size_t>(inflated.size() - produced, UINT_MAX);
        z.next_in = const_cast<Bytef*>(bytes.data() + consumed);
        z.avail_in = static_cast<uInt>(in_now);
        z.next_out = inflated.data() + produced;
        z.avail_out = static_cast<uInt>(out_now);
        int rc = inflate(&z, Z_NO_FLUSH);
        consumed += in_now - z.avail_in;
        produced += out_now - z.avail_out;
        if (rc == Z_STREAM_END) {
            if (consumed == bytes.size()) break;
            // Another member follows (erl accepts concatenated members, as gunzip does).
            if (inflateReset(&z) != Z_OK) return gzip_error("zlib could not restart");
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) return gzip_error(z.msg ? z.msg : zError(rc));
        // With room for output, no progress means the input ran out inside a member.
        if (z.avail_in == in_now && z.avail_out == out_now) return gzip_error("truncated stream");
    }
    if (produced > MAX_INFLATED_BEAM) return past_limit();
    inflated.resize(produced);
    return std::span<const uint8_t>(inflated);
}

}  // namespace beam::loader
