// libFuzzer target: erlang:decode_packet/3's framing and HTTP parser (bifs/packet_*.cpp): the
// first two bytes pick the packet type and the options, the rest is the data. A length must
// be sane, and a whole packet's body must lie inside it.
#include <cstdlib>

#include "bifs/packet.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    constexpr int TYPES = int(beam::PacketType::SslTls) + 1;
    auto type = beam::PacketType(data[0] % TYPES);
    beam::PacketOptions opts;
    opts.max_size = data[1] & 0x80 ? 0 : uint32_t(data[1]) * 64;
    opts.line_length = data[1] & 0x40 ? uint32_t(data[1] & 0x3f) : 0;
    opts.delimiter = data[1] & 0x20 ? '\r' : '\n';
    const uint8_t* buf = data + 2;
    size_t n = size - 2;
    bool header_state = false;
    int len = beam::packet_length(type, buf, n, opts, header_state);
    if (len <= 0 || size_t(len) > n) return 0;
    size_t off = 0, body = 0;
    beam::packet_body(type, buf, size_t(len), off, body);
    if (off > size_t(len) || body > size_t(len) - off) std::abort();
    if (type == beam::PacketType::Http || type == beam::PacketType::HttpH || type == beam::PacketType::HttpBin ||
        type == beam::PacketType::HttpHBin) {
        // As the BIF: the data is a binary's bytes, which http_bin's results are slices of.
        beam::LiteralArea heap;
        beam::Term input = beam::make_binary(heap, buf, n);
        const uint8_t* bytes = beam::bit_view(input).bytes();
        bool bin = type == beam::PacketType::HttpBin || type == beam::PacketType::HttpHBin;
        beam::HttpStrings out{heap, bin, input, bytes, n};
        (void)beam::parse_http_packet(out, bytes, size_t(len), header_state);
    }
    return 0;
}
