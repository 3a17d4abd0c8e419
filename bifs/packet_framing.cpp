// How long the first packet of a buffer is, for each packet type of erlang:decode_packet/3
// (OTP: packet_parser.c, packet_get_length). Lengths are 32-bit as in erts: a header length
// plus a body length that overflows a signed 32-bit int is an invalid packet, not a huge one.
#include <cstring>

#include "bifs/packet.hpp"

namespace beam {
namespace {

uint32_t be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
uint32_t be24(const uint8_t* p) { return uint32_t(p[0]) << 16 | be16(p + 1); }
uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | be24(p + 1); }
uint32_t le32(const uint8_t* p) { return uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0]; }

constexpr int MORE = 0;
constexpr int INVALID = -1;

// A header of `hlen` bytes announcing `plen` more. Unsigned arithmetic wraps as erts' does
// (tpkt's length field counts its header, so a value below 4 wraps and is then refused).
int header_and_body(uint32_t hlen, uint32_t plen, const PacketOptions& o) {
    int32_t total = int32_t(hlen + plen);
    if ((o.max_size != 0 && plen > o.max_size) || total < int32_t(hlen)) return INVALID;
    return total;
}

int line_length(const uint8_t* d, size_t n, const PacketOptions& o) {
    const void* nl = std::memchr(d, o.delimiter, n);
    if (!nl) {
        if (o.max_size != 0 && n > o.max_size) return INVALID;
        if (o.line_length != 0 && n >= o.line_length) return int(o.line_length);
        return MORE;
    }
    size_t len = size_t(static_cast<const uint8_t*>(nl) - d) + 1;
    if (o.max_size != 0 && len > o.max_size) return INVALID;
    if (o.line_length != 0 && len > o.line_length) return int(o.line_length);
    return int(len);
}

// BER: one tag byte (or 0x1f and continuation bytes), then a short length or 0x8N and N
// (at most 4) length bytes.
int asn1_length(const uint8_t* d, size_t n, const PacketOptions& o) {
    if (n < 2) return MORE;
    size_t i = 1, left = n - 1;
    if ((d[0] & 0x1f) == 0x1f) {
        while (left && (d[i] & 0x80)) ++i, --left;
        if (left < 2) return MORE;
        ++i, --left;
    }
    uint32_t plen;
    uint32_t len_bytes = d[i] & 0x7f;
    if (d[i] & 0x80) {
        ++i, --left;
        if (left < len_bytes) return MORE;
        switch (len_bytes) {
        case 0: plen = 0; break;
        case 1: plen = d[i]; break;
        case 2: plen = be16(d + i); break;
        case 3: plen = be24(d + i); break;
        case 4: plen = be32(d + i); break;
        default: return INVALID;
        }
        i += len_bytes;
    } else {
        ++i;
        plen = len_bytes;
    }
    return header_and_body(uint32_t(i), plen, o);
}

bool is_space(uint8_t c) { return c == ' ' || c == '\t'; }

// An HTTP line ends at "\n"; in the header state a line followed by one starting with a space
// or tab continues into it, so a line at the very end of the data is not known to be whole.
int http_length(const uint8_t* d, size_t n, const PacketOptions& o, bool header_state) {
    if ((n == 1 && d[0] == '\n') || (n == 2 && d[0] == '\r' && d[1] == '\n')) return int(n);
    // decode_packet users once limited HTTP lines with line_length: it still counts when
    // packet_size is not given.
    uint32_t max = o.max_size ? o.max_size : o.line_length;
    size_t from = 0;
    for (;;) {
        const void* nl = std::memchr(d + from, '\n', n - from);
        if (!nl) {
            if (max != 0 && n >= max) return INVALID;
            return MORE;
        }
        size_t plen = size_t(static_cast<const uint8_t*>(nl) - d) + 1;
        if (!header_state) {
            if (max != 0 && plen > max) return INVALID;
            return int(plen);
        }
        if (plen < n) {
            if (is_space(d[plen]) && plen > 2) {
                from = plen;
                continue;
            }
            if (max != 0 && plen > max) return INVALID;
            return int(plen);
        }
        if (max != 0 && plen > max) return INVALID;
        return MORE;
    }
}

}  // namespace

int packet_length(PacketType type, const uint8_t* d, size_t n, const PacketOptions& o, bool& header_state) {
    // Every type needs a byte at least. An empty buffer may have no storage (d null: tcp_inet's
    // empty input buffer), and memchr or d + 0 on null is undefined (UBSan found it).
    if (n == 0) return MORE;
    switch (type) {
    case PacketType::Raw: return n == 0 ? MORE : int(n);
    case PacketType::One: return n < 1 ? MORE : header_and_body(1, d[0], o);
    case PacketType::Two: return n < 2 ? MORE : header_and_body(2, be16(d), o);
    case PacketType::Four: return n < 4 ? MORE : header_and_body(4, be32(d), o);
    // Sun RPC record marking: the top bit marks the last fragment.
    case PacketType::SunRm: return n < 4 ? MORE : header_and_body(4, be32(d) & 0x7fffffff, o);
    case PacketType::Line: return line_length(d, n, o);
    case PacketType::Asn1: return asn1_length(d, n, o);
    case PacketType::Cdr: {  // GIOP: "GIOP", version, flags (bit 0: little endian), type, size
        if (n < 12) return MORE;
        if (std::memcmp(d, "GIOP", 4) != 0) return INVALID;
        return header_and_body(12, (d[6] & 1) ? le32(d + 8) : be32(d + 8), o);
    }
    case PacketType::Fcgi: {  // version 1, type, request id, content length, padding, reserved
        if (n < 8) return MORE;
        if (d[0] != 1) return INVALID;
        return header_and_body(8, be16(d + 4) + d[6], o);
    }
    case PacketType::Tpkt: {  // version 3, reserved, length including this header
        if (n < 4) return MORE;
        if (d[0] != 3) return INVALID;
        return header_and_body(4, be16(d + 2) - 4u, o);
    }
    case PacketType::SslTls: {
        if (n < 5) return MORE;
        if ((d[0] & 0x80) && d[2] == 1)  // SSLv2 client hello: <<1:1, Len:15, 1, Version:16>>
            return header_and_body(5, (be16(d) & 0x7fff) - 3u, o);
        return header_and_body(5, be16(d + 3), o);  // <<Type, Version:16, Length:16>>
    }
    case PacketType::HttpH:
    case PacketType::HttpHBin:
        header_state = true;
        return http_length(d, n, o, true);
    case PacketType::Http:
    case PacketType::HttpBin: return http_length(d, n, o, header_state);
    }
    return INVALID;
}

void packet_body(PacketType type, const uint8_t* packet, size_t len, size_t& off, size_t& body_len) {
    off = 0;
    body_len = len;
    switch (type) {
    case PacketType::One: off = 1; break;
    case PacketType::Two: off = 2; break;
    case PacketType::Four: off = 4; break;
    case PacketType::Fcgi: body_len = len - packet[6]; return;
    default: return;
    }
    body_len = len - off;
}

}  // namespace beam
