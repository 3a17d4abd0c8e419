// Bit-syntax construction: the bs_create_bin instruction (OTP 25).
//
// Three passes over the segments, because OTP reports errors in that order: first every
// explicit size is checked (a bad size in segment 2 wins over a bad value in segment 1) and
// the values of `all`-sized binaries are checked to be bitstrings, then each value is checked
// and the sizes that depend on values (binary `all`, utf*) are computed, then the result is
// allocated once and written.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/bits_append.hpp"
#include "vm/bignum.hpp"
#include "vm/bits_codec.hpp"
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"
#include "vm/map.hpp"

namespace beam {

namespace {

// Beyond this many bits OTP raises system_limit instead of trying to allocate.
constexpr size_t MAX_BITS = size_t{1} << 62;

Term list_of(Process* p, const std::vector<Term>& items) {
    return make_list_from(*p, items.data(), items.size());
}

// badarg/system_limit with OTP's error_info: the first frame of the trace is the function
// holding the instruction, its location extended with
// {error_info, #{cause => {Seg, Type, Kind, Value}, function => format_bs_fail, module => erl_erts_errors}}.
Term bs_error(Process* p, const BsCreateOp* op, Term reason, const BsSegment& s, Term kind, Term value) {
    Term type = s.type == am::append || s.type == am::private_append ? am::binary : s.type;
    p->error(reason);
    if (op->fail || !op->code) return NON_VALUE;  // in a guard the failure only jumps
    Term cause = make_tuple(*p, {make_small(SWord(s.seg)), type, kind, value});
    Term info = map_from_pairs(*p, {{atom("cause"), cause},
                                    {atom("function"), atom("format_bs_fail")},
                                    {am::module, am::erl_erts_errors}});
    const Word* pc = op->code->code.data() + op->code_pos;
    const FunctionInfo* fi = op->code->function_at(pc);
    if (!fi) return NON_VALUE;
    std::vector<Term> loc;
    const LineRecord* lr = op->code->line_at(pc);
    if (lr && lr->line != 0 && lr->file < op->code->files.size()) {
        loc.push_back(make_tuple(*p, {am::file, op->code->files[lr->file]}));
        loc.push_back(make_tuple(*p, {am::line, make_small(lr->line)}));
    }
    loc.push_back(make_tuple(*p, {am::error_info, info}));
    p->ftop = make_tuple(*p, {op->code->name, fi->name, make_small(fi->arity), list_of(p, loc)});
    p->fskip_pc_frame = true;
    return NON_VALUE;
}

bool is_binary_type(Term t) { return t == am::binary || t == am::append || t == am::private_append; }

bool is_append(Term t) { return t == am::append || t == am::private_append; }
bool is_utf_type(Term t) { return t == am::utf8 || t == am::utf16 || t == am::utf32; }

// Copying binary data costs reductions, as in OTP (erl_bits.c: one per 1,024 bytes), so a
// process building huge binaries still yields and process_info shows the work.
// Writes segments [from, n) starting at bit `off` of `data`; values were checked in pass 2.
// Returns the bits copied from binary segments.
size_t write_segments(const BsCreateOp* op, Term* x, Term* E, const size_t* bits, size_t from, uint8_t* data,
                      size_t off) {
    size_t copied = 0;
    for (size_t i = from; i < op->segs.size(); ++i) {
        const BsSegment& s = op->segs[i];
        bool little = (s.flags & (BS_LITTLE | BS_NATIVE)) != 0;  // native is little on our targets
        if (s.type == am::string) {
            copy_bits(op->strings + s.value, 0, data, off, bits[i]);
            off += bits[i];
            continue;
        }
        Term v = any_operand(s.value, x, E);
        if (s.type == am::integer) {
            put_integer_bits(data, off, v, bits[i], little);
        } else if (s.type == am::float_) {
            put_float_bits(data, off, is_float(v) ? float_value(v) : int_to_double(v), bits[i], little);
        } else if (is_binary_type(s.type)) {
            BitView bv = bit_view(v);
            copy_bits(bv.base, bv.bit_offset, data, off, bits[i]);
            copied += bits[i];
        } else if (s.type == am::utf8) {
            put_utf8_bits(data, off, uint32_t(small_value(v)));
        } else if (s.type == am::utf16) {
            put_utf16_bits(data, off, uint32_t(small_value(v)), little);
        } else {
            put_utf32_bits(data, off, uint32_t(small_value(v)), little);
        }
        off += bits[i];
    }
    return copied;
}

}  // namespace

uint8_t* refc_bytes(Term bin) { return reinterpret_cast<BinaryBlob*>(boxed_ptr(bin)[2].raw)->data; }

// The result of <<Acc/bitstring, ...>> when it is an off-heap binary of `bytes` bytes, with
// Acc (acc_bits long) already in place. Appending in a loop must not copy Acc every time: the
// blob gets spare capacity, and when Acc is the latest binary built in a blob (its size is
// the blob's used size) the new bytes go right after it, claimed with a compare-and-swap so
// two processes appending to the same binary never both write there. Older binaries keep
// their own size and never see the bytes beyond it.
// An Acc that is not whole bytes is a sub-binary from offset 0 of such a binary, and is
// extended the same way: its last byte is shared, so the claim must add at least one byte
// (whoever claims is then the only writer of the bits after Acc's end; an append that stays
// inside Acc's last byte copies). Without this, building a bitstring that is not whole bytes
// segment by segment (eval_bits on <<42:13, ...>>, as compile:file does for a constant)
// copied the whole accumulator each time: code_SUITE:constant_refc_binaries spent 90 s and
// gigabytes of garbage compiling one module.
// The last byte's bits past the new end read as zero, as in every bitstring built here.
Term append_to_writable(Process* p, Term acc, size_t acc_bits, size_t bytes) {
    BinaryBlob* blob = nullptr;
    bool reused = false;
    const Term* a = boxed_ptr(acc);
    if (header_sub(a[0]) == Sub::SubBin && a[2].raw == 0) a = boxed_ptr(a[1]);
    size_t acc_bytes = (acc_bits + 7) / 8;
    if (header_sub(a[0]) == Sub::RefcBin && size_t(a[1].raw) == acc_bytes && bytes > acc_bytes) {
        auto* cand = reinterpret_cast<BinaryBlob*>(a[2].raw);
        size_t expect = acc_bytes;
        if (bytes <= cand->capacity && std::atomic_ref<size_t>(cand->size).compare_exchange_strong(expect, bytes)) {
            blob = cand;
            reused = true;
            blob->retain();
            blob->data[bytes - 1] = 0;
        }
    }
    if (!blob) {
        blob = BinaryBlob::create_or_exit(std::max<size_t>(2 * bytes, 256));
        blob->size = bytes;
        blob->data[bytes - 1] = 0;
        BitView bv = bit_view(acc);
        copy_bits(bv.base, bv.bit_offset, blob->data, 0, acc_bits);
        charge_copy(p, acc_bits);
    }
    Term* hp = p->alloc(REFC_BIN_WORDS);
    hp[0] = make_header(Sub::RefcBin, REFC_BIN_WORDS - 1);
    hp[1] = Term{Word(bytes)};
    hp[2] = Term{reinterpret_cast<Word>(blob)};
    hp[3] = Term{0};
    // A blob made here counts in the binary virtual heap; one grown in place was counted when
    // made (its capacity doubles, so the counts of a binary built by appends add up to about
    // twice its size, not to the sum of every step's size).
    if (reused) p->link_offheap_counted(hp);
    else p->link_offheap(hp);
    return make_boxed(hp);
}

Term bs_create_bin(Process* p, Term* x, Term* E, const BsCreateOp* op) {
    if (!op->fast.empty()) {
        Term r = bs_create_bin_fast(p, x, E, op);
        if (!is_non_value(r)) return r;
    }
    const size_t n = op->segs.size();
    // Bits of each segment; SIZE_MAX until known.
    constexpr size_t UNKNOWN = std::numeric_limits<size_t>::max();
    size_t small_bits[16];
    std::vector<size_t> big_bits;
    size_t* bits = small_bits;
    if (n > 16) {
        big_bits.resize(n);
        bits = big_bits.data();
    }

    // Pass 1: explicit sizes.
    for (size_t i = 0; i < n; ++i) {
        const BsSegment& s = op->segs[i];
        bits[i] = UNKNOWN;
        if (s.type == am::string) {
            bits[i] = s.size * 8;
            continue;
        }
        // A utf segment's size follows from its value; OTP never looks at the size operand
        // (erlc gives `undefined`, hand-written assembly may give anything).
        if (is_utf_type(s.type)) continue;
        Term sz = any_operand(s.size, x, E);
        // `all` / `undefined` mean "from the value" only as literal operands (OTP's loader reads
        // them there); in a register they are bad sizes like any other atom. Only binaries take
        // their size from the value.
        bool literal = (s.size & 3) != 0;
        if (literal && (sz == am::all || sz == am::undefined) && s.type != am::integer) continue;
        if (is_big(sz) && !big_is_negative(sz)) return bs_error(p, op, am::system_limit, s, atom("size"), sz);
        if (!is_small(sz) || small_value(sz) < 0) return bs_error(p, op, am::badarg, s, atom("size"), sz);
        unsigned __int128 b = (unsigned __int128)small_value(sz) * s.unit;
        if (b > MAX_BITS) return bs_error(p, op, am::system_limit, s, atom("size"), sz);
        bits[i] = size_t(b);
    }

    // Then binary segments whose size is their value's (`all`, not the append of `<<Acc/binary,
    // ...>>`) must hold a bitstring: OTP finds out while it adds up the size, before it looks
    // at any other value (checked on erl: <<X:8, Y/binary>> with both bad reports Y).
    for (size_t i = 0; i < n; ++i) {
        const BsSegment& s = op->segs[i];
        if (bits[i] == UNKNOWN && s.type == am::binary && !is_bitstring(any_operand(s.value, x, E)))
            return bs_error(p, op, am::badarg, s, am::type, any_operand(s.value, x, E));
    }

    // Pass 2: values, and the sizes that depend on them.
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        const BsSegment& s = op->segs[i];
        if (s.type == am::string) {
            total += bits[i];
            continue;
        }
        Term v = any_operand(s.value, x, E);
        if (s.type == am::integer) {
            if (!is_integer(v)) return bs_error(p, op, am::badarg, s, am::type, v);
        } else if (s.type == am::float_) {
            // A float size other than 16/32/64 is reported here, after earlier segments'
            // values but before this segment's own value (OTP's order).
            if (bits[i] != 16 && bits[i] != 32 && bits[i] != 64)
                return bs_error(p, op, am::badarg, s, atom("invalid"), any_operand(s.size, x, E));
            if (is_integer(v)) {
                if (!std::isfinite(int_to_double(v))) return bs_error(p, op, am::badarg, s, atom("no_float"), v);
            } else if (!is_float(v)) {
                return bs_error(p, op, am::badarg, s, am::type, v);
            }
        } else if (is_binary_type(s.type)) {
            if (!is_bitstring(v)) return bs_error(p, op, am::badarg, s, am::type, v);
            size_t have = bit_view(v).bit_size;
            if (bits[i] == UNKNOWN) {
                if (s.unit > 1 && have % s.unit != 0) return bs_error(p, op, am::badarg, s, atom("unit"), v);
                bits[i] = have;
            } else if (bits[i] > have) {
                return bs_error(p, op, am::badarg, s, am::short_, v);
            }
        } else {  // utf8, utf16, utf32
            if (!is_small(v) || !is_unicode_scalar(small_value(v))) return bs_error(p, op, am::badarg, s, am::type, v);
            uint32_t cp = uint32_t(small_value(v));
            bits[i] = 8 * (s.type == am::utf8 ? utf8_bytes(cp) : s.type == am::utf16 ? utf16_bytes(cp) : 4);
        }
        total += bits[i];
        if (total > MAX_BITS) return bs_error(p, op, am::system_limit, s, atom("size"), any_operand(s.size, x, E));
    }

    // Appending nothing gives the binary itself, as erts' append does.
    if (n > 0 && is_append(op->segs[0].type) && total == bits[0]) {
        Term v = any_operand(op->segs[0].value, x, E);
        if (bit_view(v).bit_size == total) {
            any_dest(op->dst, x, E) = v;
            return v;
        }
    }
    // Pass 3: write.
    Term acc = n > 0 && is_append(op->segs[0].type) ? any_operand(op->segs[0].value, x, E) : NON_VALUE;
    Term bin = created_binary(p, acc, is_value(acc) ? bits[0] : 0, total, [&](size_t from, uint8_t* data, size_t off) {
        return write_segments(op, x, E, bits, from, data, off);
    });
    any_dest(op->dst, x, E) = bin;
    return bin;
}

}  // namespace beam

namespace beam {

// The accumulator starts empty: once appends pass HEAP_BIN_LIMIT bytes append_to_writable gives
// the blob spare capacity and extends it in place, so the size hint is not needed.
Term bs_init_writable(Process* p, Term size_hint) {
    uint8_t* data;
    return make_binary_uninit(*p, 0, &data);
}

}  // namespace beam
