// erlang:crc32/1,2, crc32_combine/3, adler32/1,2, adler32_combine/3 (erts'
// erl_bif_chksum.c), computed by zlib as in erts. The iodata rules are those of every erts
// checksum BIF (bifs/chksum_iodata.hpp); md5 is in bifs/md5.cpp.
#include <zlib.h>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/chksum_iodata.hpp"
#include "vm/bignum.hpp"

namespace beam {
namespace {

// How much one walk step hands to zlib; unlike MD5's context, a CRC or an Adler sum does
// not depend on where the input is cut, so erts' own slice size need not be copied.
constexpr size_t SLICE_BYTES = 4096;

// A checksum or a length argument: an integer 0..2^32-1 (erts: term_to_Uint and 32 bits).
bool uint32_arg(Term t, uLong* out) {
    if (!is_small(t) || small_value(t) < 0 || small_value(t) > int64_t(UINT32_MAX)) return false;
    *out = uLong(small_value(t));
    return true;
}

template <class Update>
Term checksum(Process* p, uLong start, Term data, Update update) {
    uLong sum = start;
    if (!walk_chksum_iodata(data, SLICE_BYTES, [](std::string_view) {})) return p->badarg();
    walk_chksum_iodata(data, SLICE_BYTES, [&](std::string_view c) {
        sum = update(sum, reinterpret_cast<const Bytef*>(c.data()), uInt(c.size()));
    });
    return make_integer_u(*p, uint64_t(sum));
}

Term crc32_1(Process* p, const Term* a) { return checksum(p, crc32(0, Z_NULL, 0), a[0], crc32); }
Term crc32_2(Process* p, const Term* a) {
    uLong start;
    if (!uint32_arg(a[0], &start)) return p->badarg();
    return checksum(p, start, a[1], crc32);
}
Term adler32_1(Process* p, const Term* a) { return checksum(p, adler32(0, Z_NULL, 0), a[0], adler32); }
Term adler32_2(Process* p, const Term* a) {
    uLong start;
    if (!uint32_arg(a[0], &start)) return p->badarg();
    return checksum(p, start, a[1], adler32);
}

template <class Combine>
Term combine(Process* p, const Term* a, Combine fn) {
    uLong first, second, length;
    if (!uint32_arg(a[0], &first) || !uint32_arg(a[1], &second) || !uint32_arg(a[2], &length))
        return p->badarg();
    return make_integer_u(*p, uint64_t(uint32_t(fn(first, second, z_off_t(length)))));
}
Term crc32_combine_3(Process* p, const Term* a) { return combine(p, a, crc32_combine); }
// zlib's adler32_combine answers oddly for an empty second part; erts then answers the first
// checksum, which is what joining nothing to it gives.
Term adler32_combine_3(Process* p, const Term* a) {
    return combine(p, a, [](uLong first, uLong second, z_off_t length) {
        return length == 0 ? first : adler32_combine(first, second, length);
    });
}

constexpr BifSpec table[] = {
    {"erlang", "crc32", 1, &crc32_1},
    {"erlang", "crc32", 2, &crc32_2},
    {"erlang", "crc32_combine", 3, &crc32_combine_3},
    {"erlang", "adler32", 1, &adler32_1},
    {"erlang", "adler32", 2, &adler32_2},
    {"erlang", "adler32_combine", 3, &adler32_combine_3},
};

}  // namespace

std::span<const BifSpec> checksums_bifs() { return table; }

}  // namespace beam
