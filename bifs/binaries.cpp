// Binary BIFs: erlang:byte_size/bit_size/binary_part/split_binary and the simple natives of
// the binary module (OTP: erl_bif_binary.c). binary:split/match/matches are in binary_search.cpp.
#include <algorithm>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

Term byte_size_1(Process* p, const Term* a) {
    if (!is_bitstring(a[0])) return p->badarg();
    BitView v = bit_view(a[0]);
    return make_small(SWord((v.bit_size + 7) >> 3));
}

Term bit_size_1(Process* p, const Term* a) {
    return is_bitstring(a[0]) ? make_small(SWord(bit_view(a[0]).bit_size)) : p->badarg();
}

// {Start, Len} with a negative Len meaning the Len bytes before Start, as OTP's binary:part.
// Returns false when the range falls outside 0..size.
bool byte_range(Term start_t, Term len_t, size_t size, size_t* from, size_t* count) {
    if (!is_small(start_t) || !is_small(len_t)) return false;
    SWord start = small_value(start_t), len = small_value(len_t);
    if (len < 0) {
        start += len;
        len = -len;
    }
    if (start < 0 || size_t(start) > size || size_t(len) > size - size_t(start)) return false;
    *from = size_t(start);
    *count = size_t(len);
    return true;
}

// A bitstring's trailing bits are outside every byte range, as in OTP.
Term part(Process* p, Term bin, Term start, Term len) {
    if (!is_bitstring(bin)) return p->badarg();
    size_t from, count;
    if (!byte_range(start, len, bit_view(bin).byte_size(), &from, &count)) return p->badarg();
    return make_slice(*p, bin, from * 8, count * 8);
}

Term part_pos(Process* p, Term bin, Term pos) {
    if (!is_tuple(pos) || tuple_arity(pos) != 2) return p->badarg();
    return part(p, bin, tuple_elem(pos, 0), tuple_elem(pos, 1));
}

Term binary_part_2(Process* p, const Term* a) { return part_pos(p, a[0], a[1]); }
Term binary_part_3(Process* p, const Term* a) { return part(p, a[0], a[1], a[2]); }

Term split_binary_2(Process* p, const Term* a) {
    if (!is_bitstring(a[0]) || !is_small(a[1])) return p->badarg();
    BitView v = bit_view(a[0]);
    SWord pos = small_value(a[1]);
    if (pos < 0 || size_t(pos) > v.byte_size()) return p->badarg();
    Term left = make_slice(*p, a[0], 0, size_t(pos) * 8);
    Term right = make_slice(*p, a[0], size_t(pos) * 8, v.bit_size - size_t(pos) * 8);
    return make_tuple(*p, {left, right});
}

// Byte `i` of a binary, for binary:first/last/at.
Term byte_at(Process* p, Term bin, SWord i) {
    if (!is_binary(bin)) return p->badarg();
    std::string scratch;
    std::string_view bytes = binary_bytes(bin, scratch);
    if (i < 0 || size_t(i) >= bytes.size()) return p->badarg();
    return make_small(uint8_t(bytes[size_t(i)]));
}

Term first_1(Process* p, const Term* a) { return byte_at(p, a[0], 0); }
Term last_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    return byte_at(p, a[0], SWord(bit_view(a[0]).byte_size()) - 1);
}
Term at_2(Process* p, const Term* a) {
    if (!is_small(a[1])) return p->badarg();
    return byte_at(p, a[0], small_value(a[1]));
}

// binary:copy/2 (OTP: erl_bif_binary.c): no copies of any bitstring are <<>>, as erts answers
// before it looks for whole bytes.
Term copy(Process* p, Term bin, Term times) {
    if (is_bitstring(bin) && times == make_small(0)) return make_binary(*p, std::string_view{});
    // As erts: any count that fits 64 bits; a result that cannot be allocated ends the VM with
    // erts' binary_alloc message (vm/fatal_error.hpp). A size past 64 bits (erts wraps it) is a
    // system_limit here (docs/limits.md).
    uint64_t n;
    if (is_small(times) && small_value(times) >= 0) {
        n = uint64_t(small_value(times));
    } else if (is_big(times) && !big_is_negative(times) && big_limb_count(times) == 1) {
        n = big_limbs(times)[0];
    } else {
        return p->badarg();
    }
    if (!is_binary(bin)) return p->badarg();
    std::string scratch;
    std::string_view bytes = binary_bytes(bin, scratch);
    if (n != 0 && bytes.size() > SIZE_MAX / n) return p->error(am::system_limit);
    uint8_t* out;
    Term result = make_binary_uninit(*p, bytes.size() * n, &out);
    for (size_t i = 0; i < n; ++i) std::memcpy(out + i * bytes.size(), bytes.data(), bytes.size());
    return result;
}

Term copy_1(Process* p, const Term* a) { return copy(p, a[0], make_small(1)); }
Term copy_2(Process* p, const Term* a) { return copy(p, a[0], a[1]); }

Term bin_to_list(Process* p, Term bin, Term start, Term len) {
    if (!is_binary(bin)) return p->badarg();
    Term sub = part(p, bin, start, len);
    if (is_non_value(sub)) return sub;
    std::string scratch;
    std::string_view bytes = binary_bytes(sub, scratch);
    return make_byte_list(*p, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

Term bin_to_list_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    return bin_to_list(p, a[0], make_small(0), make_small(SWord(bit_view(a[0]).byte_size())));
}
Term bin_to_list_2(Process* p, const Term* a) {
    if (!is_tuple(a[1]) || tuple_arity(a[1]) != 2) return p->badarg();
    return bin_to_list(p, a[0], tuple_elem(a[1], 0), tuple_elem(a[1], 1));
}
Term bin_to_list_3(Process* p, const Term* a) { return bin_to_list(p, a[0], a[1], a[2]); }

bool endianness_arg(Term t, bool* little) {
    if (t != am::big && t != am::little) return false;
    *little = t == am::little;
    return true;
}

Term decode_unsigned(Process* p, Term bin, Term endian) {
    bool little;
    if (!is_binary(bin) || !endianness_arg(endian, &little)) return p->badarg();
    std::string scratch;
    std::string_view bytes = binary_bytes(bin, scratch);
    size_t n = bytes.size();
    std::vector<uint64_t> limbs((n + 7) / 8 + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        // Significance of byte i: position from the least significant end.
        size_t sig = little ? i : n - 1 - i;
        limbs[sig / 8] |= uint64_t(uint8_t(bytes[i])) << (8 * (sig % 8));
    }
    return make_integer_limbs(*p, limbs.data(), limbs.size(), false);
}

Term encode_unsigned(Process* p, Term x, Term endian) {
    bool little;
    if (!is_integer(x) || int_sign(x) < 0 || !endianness_arg(endian, &little)) return p->badarg();
    std::vector<uint8_t> bytes;  // least significant first
    if (is_small(x)) {
        uint64_t v = uint64_t(small_value(x));
        do {
            bytes.push_back(uint8_t(v));
            v >>= 8;
        } while (v);
    } else {
        const uint64_t* limbs = big_limbs(x);
        for (size_t i = 0; i < big_limb_count(x); ++i)
            for (int b = 0; b < 8; ++b) bytes.push_back(uint8_t(limbs[i] >> (8 * b)));
        while (bytes.size() > 1 && bytes.back() == 0) bytes.pop_back();
    }
    if (!little) std::reverse(bytes.begin(), bytes.end());
    return make_binary(*p, bytes.data(), bytes.size());
}

Term decode_unsigned_1(Process* p, const Term* a) { return decode_unsigned(p, a[0], am::big); }
Term decode_unsigned_2(Process* p, const Term* a) { return decode_unsigned(p, a[0], a[1]); }
Term encode_unsigned_1(Process* p, const Term* a) { return encode_unsigned(p, a[0], am::big); }
Term encode_unsigned_2(Process* p, const Term* a) { return encode_unsigned(p, a[0], a[1]); }

Term referenced_byte_size_1(Process* p, const Term* a) {
    if (!is_bitstring(a[0])) return p->badarg();
    return make_integer_u(*p, referenced_byte_size(a[0]));
}

Term list_to_bin_1(Process* p, const Term* a) {
    std::vector<uint8_t> bytes;
    if (!(is_list(a[0]) || is_nil(a[0])) || !iolist_to_bytes(a[0], bytes)) return p->badarg();
    return make_binary(*p, bytes.data(), bytes.size());
}

constexpr BifSpec table[] = {
    {"erlang", "byte_size", 1, &byte_size_1, true},
    {"erlang", "bit_size", 1, &bit_size_1, true},
    {"erlang", "binary_part", 2, &binary_part_2, true},
    {"erlang", "binary_part", 3, &binary_part_3, true},
    {"erlang", "split_binary", 2, &split_binary_2},
    {"binary", "first", 1, &first_1},
    {"binary", "last", 1, &last_1},
    {"binary", "at", 2, &at_2},
    {"binary", "part", 2, &binary_part_2},
    {"binary", "part", 3, &binary_part_3},
    {"binary", "copy", 1, &copy_1},
    {"binary", "copy", 2, &copy_2},
    {"binary", "bin_to_list", 1, &bin_to_list_1},
    {"binary", "bin_to_list", 2, &bin_to_list_2},
    {"binary", "bin_to_list", 3, &bin_to_list_3},
    {"binary", "decode_unsigned", 1, &decode_unsigned_1},
    {"binary", "decode_unsigned", 2, &decode_unsigned_2},
    {"binary", "encode_unsigned", 1, &encode_unsigned_1},
    {"binary", "encode_unsigned", 2, &encode_unsigned_2},
    {"binary", "list_to_bin", 1, &list_to_bin_1},
    {"binary", "referenced_byte_size", 1, &referenced_byte_size_1},
};

}  // namespace

std::span<const BifSpec> binaries_bifs() { return table; }

}  // namespace beam
