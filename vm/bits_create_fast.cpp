// bs_create_bin in its common shapes (BsFastSeg, chosen by the loader: integers up to 64 bits,
// binaries of a given size or `all`, utf8 code points, strings): one pass to check the
// values and add up the size, one to write, no per-segment type dispatch on atoms and no
// bignum-capable integer writer. Whenever a value or size is not what the fast shape expects
// (a bignum, not a bitstring, too short, a bad unit or size, not a code point) it returns
// NON_VALUE before doing anything,
// and the general bs_create_bin (vm/interp_bits.cpp) handles the instruction and its errors.
#include <cstring>

#include "vm/binary.hpp"
#include "vm/bits_append.hpp"
#include "vm/bits_codec.hpp"
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"

namespace beam {

namespace {

struct Bits {
    const uint8_t* base;  // underlying binary's data
    size_t offset;        // bits
    size_t size;          // bits
};

// The data of a bitstring term, or size SIZE_MAX when `t` is not one.
inline Bits bits_of(Term t) {
    if (!is_boxed(t)) return {nullptr, 0, SIZE_MAX};
    const Term* b = boxed_ptr(t);
    switch (header_sub(b[0])) {
    case Sub::HeapBin: return {reinterpret_cast<const uint8_t*>(b + 2), 0, size_t(b[1].raw) << 3};
    case Sub::RefcBin: return {reinterpret_cast<const BinaryBlob*>(b[2].raw)->data, 0, size_t(b[1].raw) << 3};
    case Sub::SubBin: return {binary_data_base(b[1]), size_t(b[2].raw), size_t(b[3].raw)};
    default: return {nullptr, 0, SIZE_MAX};
    }
}

// The low `bits` (0..64) bits of v (two's complement) at bit `off`.
inline void put_int(uint8_t* data, size_t off, Term v, unsigned bits, bool little) {
    if (((off | bits) & 7) == 0) {
        uint64_t u = uint64_t(small_value(v));
        uint8_t* q = data + (off >> 3);
        unsigned n = bits >> 3;
        if (little) {
            for (unsigned i = 0; i < n; ++i) q[i] = uint8_t(u >> (8 * i));
        } else {
            for (unsigned i = 0; i < n; ++i) q[n - 1 - i] = uint8_t(u >> (8 * i));
        }
        return;
    }
    put_integer_bits(data, off, v, bits, little);
}

inline void put_bits(uint8_t* data, size_t off, const uint8_t* src, size_t src_off, size_t bits) {
    if (((off | src_off | bits) & 7) == 0) {
        if (bits) std::memcpy(data + (off >> 3), src + (src_off >> 3), bits >> 3);
        return;
    }
    copy_bits(src, src_off, data, off, bits);
}

// Writes segments [from, n) from bit `off`, each `bits[i]` long; returns the bits copied from
// binaries.
size_t write_fast(const BsCreateOp* op, const Term* vals, const Bits* bins, const size_t* bits, size_t from,
                  uint8_t* data, size_t off) {
    size_t copied = 0;
    for (size_t i = from; i < op->fast.size(); ++i) {
        const BsFastSeg& f = op->fast[i];
        switch (f.kind) {
        case BsFastSeg::Int:
        case BsFastSeg::IntVar: put_int(data, off, vals[i], unsigned(bits[i]), f.little); break;
        case BsFastSeg::String: put_bits(data, off, op->strings + f.value, 0, bits[i]); break;
        case BsFastSeg::Utf8: put_utf8_bits(data, off, uint32_t(small_value(vals[i]))); break;
        default:
            put_bits(data, off, bins[i].base, bins[i].offset, bits[i]);
            copied += bits[i];
        }
        off += bits[i];
    }
    return copied;
}

// The bits of a segment sized by a register: Size * unit, or SIZE_MAX when Size is not a
// small non-negative integer or the product passes `limit`.
inline size_t var_bits(Term size, Word unit, size_t limit) {
    if (!is_small(size) || small_value(size) < 0) return SIZE_MAX;
    size_t n = size_t(small_value(size));
    if (unit && n > limit / unit) return SIZE_MAX;
    return n * unit;
}

}  // namespace

Term bs_create_bin_fast(Process* p, Term* x, Term* E, const BsCreateOp* op) {
    const size_t n = op->fast.size();
    // Uninitialised on purpose (a Term array would be filled with non-values on every call);
    // entry i is set for every segment that is not a string before it is read.
    union Vals {
        Vals() {}
        Term t[BS_FAST_MAX];
    } vals_;
    Term* vals = vals_.t;
    Bits bins[BS_FAST_MAX];
    size_t bits[BS_FAST_MAX];
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        const BsFastSeg& f = op->fast[i];
        if (f.kind == BsFastSeg::String) {
            bits[i] = f.bits;
            total += f.bits;
            continue;
        }
        Term v = any_operand(f.value, x, E);
        vals[i] = v;
        switch (f.kind) {
        case BsFastSeg::Int:
            if (!is_small(v)) return NON_VALUE;
            bits[i] = f.bits;
            break;
        case BsFastSeg::IntVar:
            if (!is_small(v)) return NON_VALUE;
            bits[i] = var_bits(any_operand(f.size, x, E), f.unit, 64);
            if (bits[i] == SIZE_MAX) return NON_VALUE;
            break;
        case BsFastSeg::Utf8:
            if (!is_small(v) || !is_unicode_scalar(small_value(v))) return NON_VALUE;
            bits[i] = 8 * utf8_bytes(uint32_t(small_value(v)));
            break;
        default: {
            Bits b = bits_of(v);
            if (b.size == SIZE_MAX) return NON_VALUE;
            if (f.kind == BsFastSeg::BinAll) {
                if (f.unit > 1 && b.size % f.unit != 0) return NON_VALUE;
                bits[i] = b.size;
            } else {
                bits[i] = f.kind == BsFastSeg::BinImm ? f.bits : var_bits(any_operand(f.size, x, E), f.unit, b.size);
                if (bits[i] > b.size) return NON_VALUE;
            }
            bins[i] = b;
        }
        }
        total += bits[i];
    }
    Term acc = NON_VALUE;
    if (n > 0 && (op->segs[0].type == am::append || op->segs[0].type == am::private_append) &&
        op->fast[0].kind == BsFastSeg::BinAll) {
        // As the general path: appending nothing gives the binary itself.
        if (total == bins[0].size) {
            any_dest(op->dst, x, E) = vals[0];
            return vals[0];
        }
        acc = vals[0];
    }
    Term bin = created_binary(p, acc, is_value(acc) ? bins[0].size : 0, total, [&](size_t from, uint8_t* data, size_t off) {
        return write_fast(op, vals, bins, bits, from, data, off);
    });
    any_dest(op->dst, x, E) = bin;
    return bin;
}

}  // namespace beam
