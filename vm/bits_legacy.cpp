// The construction instructions of OTP 24 and earlier, which OTP 25's loader still accepts:
// bs_init2/bs_init_bits start a binary of a computed size, bs_append/bs_private_append start
// one that extends an existing binary, and bs_put_* write each segment after the previous one.
// bs_add, bs_utf8_size and bs_utf16_size compute the size beforehand.
//
// The compiler emits the puts right after their init with nothing between that can collect
// garbage or yield, so the write position lives in per-thread state, as OTP keeps it per
// scheduler (erts_current_bin). Every put checks it stays inside the binary its init made.
//
// Errors are plain badarg/system_limit with the function's own frame (no error_info): that is
// what OTP 25 raises for these instructions.
#include <algorithm>
#include <cmath>
#include <limits>

#include "loader/generic_ops.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/bits_append.hpp"
#include "vm/bits_codec.hpp"
#include "vm/gc.hpp"
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"

namespace beam {

namespace {

using namespace loader;

constexpr size_t MAX_BITS = size_t{1} << 62;

struct Writer {
    uint8_t* data = nullptr;
    size_t pos = 0;  // next bit to write
    size_t end = 0;  // bits in the binary being built
};
thread_local Writer g_writer;

// Heap words the largest binary header may take: a heap binary of 64 bytes plus a sub-binary.
constexpr size_t BIN_WORDS = 2 + HEAP_BIN_LIMIT / 8 + SUB_BIN_WORDS;

// Size operand times unit, in bits. Raises (badarg or system_limit) and returns false if unusable.
bool size_bits(Process* p, Term sz, Word unit, size_t* bits) {
    if (is_big(sz) && !big_is_negative(sz)) return p->error(am::system_limit), false;
    if (!is_small(sz) || small_value(sz) < 0) return p->badarg(), false;
    unsigned __int128 b = (unsigned __int128)small_value(sz) * unit;
    if (b > MAX_BITS) return p->error(am::system_limit), false;
    *bits = size_t(b);
    return true;
}

// Makes sure `need` words are free on the heap, keeping x[0..live) (the binary instructions'
// Words/Live operands); the stack may move, so the caller re-reads E from p->stop.
void reserve_heap(Process* p, Term* x, Word live, size_t need) {
    if (size_t(p->stop - p->htop) < need + S_RESERVED || p->fragments) garbage_collect(p, x, unsigned(live), need);
}

// A fresh binary of `bits` bits to be filled by the puts that follow.
Term start_binary(Process* p, size_t bits) {
    size_t bytes = (bits + 7) / 8;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, bytes, &data);
    if (bytes) data[bytes - 1] = 0;  // the unused bits of a bitstring's last byte read as zero
    if (bits % 8) bin = make_sub_binary(*p, bin, 0, bits);
    g_writer = {data, 0, bits};
    return bin;
}

// <<Bin/bits, Extra bits to be put>>; Bin must be a whole number of units.
Term start_append(Process* p, Term bin, size_t add, Word unit) {
    if (!is_bitstring(bin)) return p->badarg();
    BitView bv = bit_view(bin);
    if (unit > 1 && bv.bit_size % unit != 0) return p->badarg();
    size_t total = bv.bit_size + add;
    if (total > MAX_BITS) return p->error(am::system_limit);
    if (total % 8 == 0 && total / 8 > HEAP_BIN_LIMIT) {
        Term r = append_to_writable(p, bin, bv.bit_size, total / 8);
        g_writer = {refc_bytes(r), bv.bit_size, total};
        return r;
    }
    Term r = start_binary(p, total);
    bv = bit_view(bin);  // unchanged: start_binary allocates without collecting
    copy_bits(bv.base, bv.bit_offset, g_writer.data, 0, bv.bit_size);
    g_writer.pos = bv.bit_size;
    return r;
}

// Claims `bits` bits at the write position; false (badarg raised) past the binary's end,
// which only malformed code can reach.
bool claim(Process* p, size_t bits, size_t* at) {
    if (!g_writer.data || bits > g_writer.end - g_writer.pos) return p->badarg(), false;
    *at = g_writer.pos;
    g_writer.pos += bits;
    return true;
}

bool put_integer(Process* p, Term v, size_t bits, Word flags) {
    if (!is_integer(v)) return p->badarg(), false;
    size_t at;
    if (!claim(p, bits, &at)) return false;
    put_integer_bits(g_writer.data, at, v, bits, (flags & (BS_LITTLE | BS_NATIVE)) != 0);
    return true;
}

bool put_float(Process* p, Term v, size_t bits, Word flags) {
    if (bits != 16 && bits != 32 && bits != 64) return p->badarg(), false;
    double d;
    if (is_float(v)) d = float_value(v);
    else if (is_integer(v)) d = int_to_double(v);
    else return p->badarg(), false;
    if (!std::isfinite(d)) return p->badarg(), false;
    size_t at;
    if (!claim(p, bits, &at)) return false;
    put_float_bits(g_writer.data, at, d, bits, (flags & (BS_LITTLE | BS_NATIVE)) != 0);
    return true;
}

bool put_binary(Process* p, Term v, Term size, Word unit) {
    if (!is_bitstring(v)) return p->badarg(), false;
    BitView bv = bit_view(v);
    size_t bits;
    if (size == am::all) {
        if (unit > 1 && bv.bit_size % unit != 0) return p->badarg(), false;
        bits = bv.bit_size;
    } else {
        if (!size_bits(p, size, unit, &bits)) return false;
        if (bits > bv.bit_size) return p->badarg(), false;
    }
    size_t at;
    if (!claim(p, bits, &at)) return false;
    copy_bits(bv.base, bv.bit_offset, g_writer.data, at, bits);
    return true;
}

bool put_char(Process* p, uint8_t opcode, Term v, Word flags) {
    if (!is_small(v) || !is_unicode_scalar(small_value(v))) return p->badarg(), false;
    uint32_t cp = uint32_t(small_value(v));
    bool little = (flags & (BS_LITTLE | BS_NATIVE)) != 0;
    size_t bits = 8 * (opcode == op_bs_put_utf8 ? utf8_bytes(cp) : opcode == op_bs_put_utf16 ? utf16_bytes(cp) : 4);
    size_t at;
    if (!claim(p, bits, &at)) return false;
    if (opcode == op_bs_put_utf8) put_utf8_bits(g_writer.data, at, cp);
    else if (opcode == op_bs_put_utf16) put_utf16_bits(g_writer.data, at, cp, little);
    else put_utf32_bits(g_writer.data, at, cp, little);
    return true;
}

// bs_add: Src1 + Src2 * Unit, both non-negative integers.
Term add_sizes(Process* p, Term a, Term b, Word unit) {
    for (Term t : {a, b}) {
        if (is_big(t) && !big_is_negative(t)) return p->error(am::system_limit);
        if (!is_small(t) || small_value(t) < 0) return p->badarg();
    }
    unsigned __int128 r = (unsigned __int128)small_value(a) + (unsigned __int128)small_value(b) * unit;
    if (r > MAX_BITS) return p->error(am::system_limit);
    return make_small(SWord(r));
}

Term utf_size(uint8_t opcode, Term v) {
    // The put that follows checks the value; an invalid one only needs some size here.
    if (!is_small(v) || small_value(v) < 0) return make_small(4);
    uint64_t cp = uint64_t(small_value(v));
    if (opcode == op_bs_utf16_size) return make_small(cp < 0x10000 ? 2 : 4);
    return make_small(cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);
}

}  // namespace

const Word* bs_construct_legacy(Process* p, Term* x, Term* E, const BsMatchOp* op) {
    const Word* a = op->args;
    auto fail = [&]() -> const Word* { return op->fail ? op->fail : nullptr; };
    auto arg = [&](int i) { return any_operand(a[i], x, E); };

    switch (op->opcode) {
    case op_bs_init2:       // [size words live dst], size in bytes
    case op_bs_init_bits: {  // [size words live dst], size in bits
        size_t bits;
        if (!size_bits(p, arg(0), op->opcode == op_bs_init2 ? 8 : 1, &bits)) return fail();
        size_t bytes = (bits + 7) / 8;
        size_t bin_words = bytes <= HEAP_BIN_LIMIT ? heap_bin_words(bytes) + SUB_BIN_WORDS : REFC_BIN_WORDS + SUB_BIN_WORDS;
        reserve_heap(p, x, a[2], bin_words + a[1]);
        E = p->stop;
        any_dest(a[3], x, E) = start_binary(p, bits);
        return BS_NEXT;
    }
    case op_bs_append: {  // [size extra live unit bin dst]; bin is kept live across the collection
        size_t add;
        if (!size_bits(p, arg(0), 1, &add)) return fail();
        Word live = a[2];
        x[live] = arg(4);
        reserve_heap(p, x, live + 1, BIN_WORDS + a[1]);
        E = p->stop;
        Term r = start_append(p, x[live], add, a[3]);
        if (is_non_value(r)) return fail();
        any_dest(a[5], x, E) = r;
        return BS_NEXT;
    }
    case op_bs_private_append: {  // [size unit bin dst]
        size_t add;
        if (!size_bits(p, arg(0), 1, &add)) return fail();
        Term r = start_append(p, arg(2), add, a[1]);
        if (is_non_value(r)) return fail();
        any_dest(a[3], x, E) = r;
        return BS_NEXT;
    }
    case op_bs_add: {  // [src1 src2 unit dst]
        Term r = add_sizes(p, arg(0), arg(1), a[2]);
        if (is_non_value(r)) return fail();
        any_dest(a[3], x, E) = r;
        return BS_NEXT;
    }
    case op_bs_utf8_size:
    case op_bs_utf16_size:  // [src dst]
        any_dest(a[1], x, E) = utf_size(op->opcode, arg(0));
        return BS_NEXT;
    case op_bs_put_integer:  // [size unit flags src]
    case op_bs_put_float: {
        size_t bits;
        if (!size_bits(p, arg(0), a[1], &bits)) return fail();
        bool ok = op->opcode == op_bs_put_integer ? put_integer(p, arg(3), bits, a[2]) : put_float(p, arg(3), bits, a[2]);
        return ok ? BS_NEXT : fail();
    }
    case op_bs_put_binary:  // [size unit flags src]
        return put_binary(p, arg(3), arg(0), a[1]) ? BS_NEXT : fail();
    case op_bs_put_string: {  // [bytes]; strings holds them
        size_t at;
        if (!claim(p, a[0] * 8, &at)) return nullptr;
        copy_bits(op->strings, 0, g_writer.data, at, a[0] * 8);
        return BS_NEXT;
    }
    case op_bs_put_utf8:
    case op_bs_put_utf16:
    case op_bs_put_utf32:  // [flags src]
        return put_char(p, op->opcode, arg(1), a[0]) ? BS_NEXT : fail();
    default:
        raise_not_implemented(p, "legacy bit syntax construction instruction");
        return nullptr;
    }
}

}  // namespace beam
