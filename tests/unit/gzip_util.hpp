// gzip streams for the loader tests: what compile:file(F, [compressed]) writes (one member,
// zlib's gzip wrapper), built here from any bytes so a test can compress what it mutated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>
#include <zlib.h>

namespace beam::test {

// `data` deflated into one gzip member, followed inside it by `zeros` zero bytes in 1 MiB steps (so
// a test can build a large stream without holding its contents).
inline std::vector<uint8_t> gzip_bytes(const std::vector<uint8_t>& data, size_t zeros = 0, int level = Z_BEST_SPEED) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2");
    std::vector<uint8_t> out, block(1 << 20, 0);
    uint8_t buf[1 << 16];
    auto feed = [&](const uint8_t* p, size_t n, int flush) {
        z.next_in = const_cast<Bytef*>(p);
        z.avail_in = static_cast<uInt>(n);
        do {
            z.next_out = buf;
            z.avail_out = sizeof buf;
            deflate(&z, flush);
            out.insert(out.end(), buf, buf + (sizeof buf - z.avail_out));
        } while (z.avail_out == 0);  // a full buffer: deflate may have more to write
    };
    feed(data.data(), data.size(), Z_NO_FLUSH);
    for (size_t left = zeros; left > 0;) {
        size_t n = std::min(left, block.size());
        feed(block.data(), n, Z_NO_FLUSH);
        left -= n;
    }
    feed(nullptr, 0, Z_FINISH);
    deflateEnd(&z);
    return out;
}

}  // namespace beam::test
