// erlang:decode_packet/3 (OTP: erl_bif_port.c, decode_packet_3): the first packet of a binary
// by the framing of a socket's {packet, Type} option. Results are {ok, Packet, Rest},
// {more, Length | undefined} or {error, invalid}; a bitstring's trailing bits stay in Rest.
#include <limits>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/packet.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

bool packet_type(Term t, PacketType& type) {
    if (is_small(t)) {
        switch (small_value(t)) {
        case 0: type = PacketType::Raw; return true;
        case 1: type = PacketType::One; return true;
        case 2: type = PacketType::Two; return true;
        case 4: type = PacketType::Four; return true;
        default: return false;
        }
    }
    static const std::pair<const char*, PacketType> names[] = {
        {"raw", PacketType::Raw},       {"asn1", PacketType::Asn1},      {"sunrm", PacketType::SunRm},
        {"cdr", PacketType::Cdr},       {"fcgi", PacketType::Fcgi},      {"line", PacketType::Line},
        {"tpkt", PacketType::Tpkt},     {"http", PacketType::Http},      {"httph", PacketType::HttpH},
        {"http_bin", PacketType::HttpBin}, {"httph_bin", PacketType::HttpHBin}, {"ssl_tls", PacketType::SslTls}};
    if (!is_atom(t)) return false;
    for (auto& [name, ty] : names)
        if (t == atom(name)) return (type = ty), true;
    return false;
}

// An option value: a non-negative integer that fits 32 bits.
bool option_value(Term t, uint32_t& v) {
    if (!is_small(t) || small_value(t) < 0 || small_value(t) > SWord(std::numeric_limits<uint32_t>::max())) return false;
    v = uint32_t(small_value(t));
    return true;
}

bool parse_options(Term opts, PacketType type, PacketOptions& o) {
    for (; is_list(opts); opts = tail(opts)) {
        Term opt = head(opts);
        uint32_t v;
        if (!is_tuple(opt) || tuple_arity(opt) != 2 || !option_value(tuple_elem(opt, 1), v)) return false;
        Term key = tuple_elem(opt, 0);
        if (key == atom("packet_size")) o.max_size = v;
        else if (key == atom("line_length")) o.line_length = v;
        else if (key == atom("line_delimiter") && type == PacketType::Line && v <= 255) o.delimiter = uint8_t(v);
        else return false;
    }
    return is_nil(opts);
}

// {ssl_tls, [], ContentType, {Major, Minor}, Body}; an SSLv2 hello is given the header of a
// v3 handshake record.
Term ssl_record(Process& p, const uint8_t* buf, size_t len) {
    std::vector<uint8_t> body;
    unsigned type, major, minor;
    if ((buf[0] & 0x80) && buf[2] == 1) {
        type = 22, major = buf[3], minor = buf[4];
        size_t n = len - 3;
        body = {1, uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n)};
        body.insert(body.end(), buf + 3, buf + len);
    } else {
        type = buf[0], major = buf[1], minor = buf[2];
        body.assign(buf + 5, buf + len);
    }
    Term version = make_tuple(p, {make_small(major), make_small(minor)});
    Term bin = make_binary(p, body.data(), body.size());
    return make_tuple(p, {atom("ssl_tls"), NIL, make_small(type), version, bin});
}

bool is_http(PacketType t) {
    return t == PacketType::Http || t == PacketType::HttpH || t == PacketType::HttpBin || t == PacketType::HttpHBin;
}

Term decode_packet_3(Process* p, const Term* a) {
    PacketType type;
    if (!packet_type(a[0], type)) return badarg_with_cause(p, "decode_packet", a, 3, atom("badopt"));
    PacketOptions opts;
    if (!is_bitstring(a[1]) || !(is_list(a[2]) || is_nil(a[2])) || !parse_options(a[2], type, opts))
        return p->badarg();

    BitView v = bit_view(a[1]);
    size_t size = v.byte_size();
    std::vector<uint8_t> aligned;  // the whole bytes, when they do not start on a byte boundary
    const uint8_t* data = v.bytes();
    if (!v.byte_aligned()) {
        aligned.resize(size);
        copy_bits(v.base, v.bit_offset, aligned.data(), 0, size * 8);
        data = aligned.data();
    }

    bool header_state = false;
    int len = packet_length(type, data, size, opts, header_state);
    if (len < 0) return make_tuple(*p, {am::error, atom("invalid")});
    if (len == 0 || size_t(len) > size)
        return make_tuple(*p, {atom("more"), len == 0 ? am::undefined : make_small(len)});

    Term packet;
    if (is_http(type)) {
        bool as_binary = type == PacketType::HttpBin || type == PacketType::HttpHBin;
        HttpStrings out{*p, as_binary, a[1], data, size};
        packet = parse_http_packet(out, data, size_t(len), header_state);
    } else if (type == PacketType::SslTls) {
        packet = ssl_record(*p, data, size_t(len));
    } else {
        size_t off, body_len;
        packet_body(type, data, size_t(len), off, body_len);
        packet = make_sub_binary(*p, a[1], off * 8, body_len * 8);
    }
    Term rest = make_sub_binary(*p, a[1], size_t(len) * 8, v.bit_size - size_t(len) * 8);
    return make_tuple(*p, {am::ok, packet, rest});
}

constexpr BifSpec table[] = {
    {"erlang", "decode_packet", 3, &decode_packet_3},
};

}  // namespace

std::span<const BifSpec> decode_packet_bifs() { return table; }

}  // namespace beam
