// Packet framing and HTTP parsing for erlang:decode_packet/3 (OTP: packet_parser.c, the
// decoder inet_drv shares with the BIF). The same framing will serve gen_tcp's {packet, T}
// option once sockets exist.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

enum class PacketType { Raw, One, Two, Four, Asn1, SunRm, Cdr, Fcgi, Line, Tpkt, Http, HttpH, HttpBin, HttpHBin, SslTls };

struct PacketOptions {
    uint32_t max_size = 0;     // packet_size: 0 is no limit
    uint32_t line_length = 0;  // line_length: lines are cut there; 0 is no limit
    uint8_t delimiter = '\n';  // line_delimiter (line packets only)
};

// The length of the first packet of `data[0..n)`, header included: > 0 a length (possibly more
// than n: that much is needed), 0 unknown until more data comes, < 0 invalid. `header_state`
// is true while HTTP header lines are expected (httph, httph_bin; set for them here).
int packet_length(PacketType type, const uint8_t* data, size_t n, const PacketOptions& opts, bool& header_state);

// Where the body sits within a whole packet of `len` bytes: 1/2/4 lose their length prefix,
// fcgi its padding; other types are returned as they are.
void packet_body(PacketType type, const uint8_t* packet, size_t len, size_t& body_off, size_t& body_len);

// Strings of HTTP results: lists for http/httph, binaries (slices of the input where they lie in
// it) for http_bin/httph_bin.
struct HttpStrings {
    TermAllocator& p;
    bool as_binary;
    Term input;            // the binary decoded
    const uint8_t* base;   // its bytes, byte aligned
    size_t size;
    Term make(const uint8_t* s, size_t len) const;
};

// The term for one whole HTTP packet: {http_request, ...}, {http_response, ...},
// {http_header, ...}, http_eoh, or {http_error, Line} when it does not parse.
Term parse_http_packet(const HttpStrings& out, const uint8_t* buf, size_t len, bool& header_state);

}  // namespace beam
