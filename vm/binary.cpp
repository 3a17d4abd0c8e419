#include "vm/binary.hpp"
#include "vm/binary_owner.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

#include "vm/fatal_error.hpp"
#include "vm/heap_ceiling.hpp"

namespace beam {

namespace {
// Relaxed: a statistic read by erlang:memory/0,1, never used to order anything.
std::atomic<size_t> blob_bytes{0};
size_t blob_size(size_t capacity) { return offsetof(BinaryBlob, data) + (capacity ? capacity : 1); }
}  // namespace

size_t BinaryBlob::live_bytes() { return blob_bytes.load(std::memory_order_relaxed); }

BinaryBlob* BinaryBlob::create(size_t capacity) {
    size_t bytes = blob_size(capacity);
    if (capacity > allocation_ceiling_bytes()) throw std::bad_alloc();
    void* mem = std::malloc(bytes);
    if (!mem) throw std::bad_alloc();
    auto* b = static_cast<BinaryBlob*>(mem);
    new (&b->refc) std::atomic<uint64_t>(1);
    b->size = 0;
    b->capacity = capacity;
    blob_bytes.fetch_add(bytes, std::memory_order_relaxed);
    return b;
}

BinaryBlob* BinaryBlob::create_or_exit(size_t capacity) {
    try {
        return create(capacity);
    } catch (const std::bad_alloc&) {
        out_of_memory("binary_alloc", "binary", capacity);
    }
}

BinaryBlob* BinaryBlob::resize_or_exit(BinaryBlob* b, size_t capacity) {
    size_t old_bytes = blob_size(b->capacity), bytes = blob_size(capacity);
    // realloc moves the counter as bytes: nothing else refers to a blob with one owner.
    void* mem = capacity > allocation_ceiling_bytes() ? nullptr : std::realloc(static_cast<void*>(b), bytes);
    if (!mem) out_of_memory("binary_alloc", "binary", capacity);
    auto* nb = static_cast<BinaryBlob*>(mem);
    nb->capacity = capacity;
    if (nb->size > capacity) nb->size = capacity;
    blob_bytes.fetch_add(bytes, std::memory_order_relaxed);
    blob_bytes.fetch_sub(old_bytes, std::memory_order_relaxed);
    return nb;
}

void BinaryBlob::release() {
    // acq_rel: the last owner must see every write other owners made before releasing.
    if (refc.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        if (detail::owned_blobs.load(std::memory_order_relaxed) != 0) [[unlikely]] detail::drop_blob_owner(this);
        blob_bytes.fetch_sub(blob_size(capacity), std::memory_order_relaxed);
        refc.~atomic();
        std::free(this);
    }
}

namespace {

struct Underlying {
    const uint8_t* base;
    size_t bit_size;
};

Underlying underlying_of(Term bin) {
    const Term* p = boxed_ptr(bin);
    switch (header_sub(p[0])) {
    case Sub::HeapBin:
        return {reinterpret_cast<const uint8_t*>(p + 2), size_t(p[1].raw) * 8};
    case Sub::RefcBin:
        return {reinterpret_cast<const BinaryBlob*>(p[2].raw)->data, size_t(p[1].raw) * 8};
    default:
        return {nullptr, 0};
    }
}

// Reads n (1..8) bits starting at bit `pos`, returned in the low bits. Touches only the bytes
// that hold those bits, so it never reads past the end of a bitstring.
inline unsigned get_bits(const uint8_t* src, size_t pos, unsigned n) {
    const uint8_t* p = src + (pos >> 3);
    unsigned s = pos & 7;
    unsigned mask = (1u << n) - 1;
    if (s + n <= 8) return (p[0] >> (8 - s - n)) & mask;
    unsigned w = (unsigned(p[0]) << 8) | p[1];
    return (w >> (16 - s - n)) & mask;
}

// Writes the low n (1..8) bits of v at bit `pos` of a single byte-range (pos&7 + n <= 8).
inline void put_bits_in_byte(uint8_t* dst, size_t pos, unsigned n, unsigned v) {
    uint8_t* p = dst + (pos >> 3);
    unsigned shift = 8 - (pos & 7) - n;
    unsigned mask = ((1u << n) - 1) << shift;
    *p = uint8_t((*p & ~mask) | ((v << shift) & mask));
}

}  // namespace

BitView bit_view(Term bin) {
    const Term* p = boxed_ptr(bin);
    switch (header_sub(p[0])) {
    case Sub::SubBin:
    case Sub::MatchState: {
        Underlying u = underlying_of(p[1]);
        if (header_sub(p[0]) == Sub::MatchState) return {u.base, size_t(p[2].raw), size_t(p[3].raw - p[2].raw)};
        return {u.base, size_t(p[2].raw), size_t(p[3].raw)};
    }
    default: {
        Underlying u = underlying_of(bin);
        return {u.base, 0, u.bit_size};
    }
    }
}

Term make_binary_uninit(TermAllocator& a, size_t n, uint8_t** data) {
    Term t = try_make_binary_uninit(a, n, data);
    if (is_non_value(t)) out_of_memory("binary_alloc", "binary", n);
    return t;
}

Term try_make_binary_uninit(TermAllocator& a, size_t n, uint8_t** data) {
    if (n <= HEAP_BIN_LIMIT) {
        size_t words = heap_bin_words(n);
        Term* hp = a.alloc(words);
        hp[0] = make_header(Sub::HeapBin, words - 1);
        hp[1] = Term{Word(n)};
        hp[words - 1] = Term{0};  // padding is zero so whole-word copies stay deterministic
        *data = reinterpret_cast<uint8_t*>(hp + 2);
        return make_boxed(hp);
    }
    BinaryBlob* blob;
    try {
        blob = BinaryBlob::create(n);
    } catch (const std::bad_alloc&) {
        return NON_VALUE;
    }
    blob->size = n;
    Term* hp = a.alloc(REFC_BIN_WORDS);
    hp[0] = make_header(Sub::RefcBin, REFC_BIN_WORDS - 1);
    hp[1] = Term{Word(n)};
    hp[2] = Term{reinterpret_cast<Word>(blob)};
    hp[3] = Term{0};
    a.link_offheap(hp);
    *data = blob->data;
    return make_boxed(hp);
}

Term make_binary_from_blob(TermAllocator& a, BinaryBlob* blob) {
    Term* hp = a.alloc(REFC_BIN_WORDS);
    hp[0] = make_header(Sub::RefcBin, REFC_BIN_WORDS - 1);
    hp[1] = Term{Word(blob->size)};
    hp[2] = Term{reinterpret_cast<Word>(blob)};
    hp[3] = Term{0};
    a.link_offheap(hp);
    return make_boxed(hp);
}

Term make_binary(TermAllocator& a, const uint8_t* bytes, size_t n) {
    uint8_t* data;
    Term t = make_binary_uninit(a, n, &data);
    if (n) std::memcpy(data, bytes, n);
    return t;
}

Term make_sub_binary(TermAllocator& a, Term bin, size_t bit_offset, size_t bit_size) {
    Term under = bin;
    const Term* p = boxed_ptr(bin);
    Sub s = header_sub(p[0]);
    if (s == Sub::SubBin || s == Sub::MatchState) {
        // Offsets into a match state are relative to its underlying binary, like bs_get_binary's.
        under = p[1];
        if (s == Sub::SubBin) bit_offset += size_t(p[2].raw);
    }
    if (bit_offset == 0 && bit_size == underlying_of(under).bit_size) return under;
    Term* hp = a.alloc(SUB_BIN_WORDS);
    hp[0] = make_header(Sub::SubBin, SUB_BIN_WORDS - 1);
    hp[1] = under;
    hp[2] = Term{Word(bit_offset)};
    hp[3] = Term{Word(bit_size)};
    return make_boxed(hp);
}

Term make_slice(TermAllocator& a, Term bin, size_t bit_offset, size_t bit_size) {
    if (bit_size > HEAP_BIN_LIMIT * 8) return make_sub_binary(a, bin, bit_offset, bit_size);
    const Term* p = boxed_ptr(bin);
    Sub s = header_sub(p[0]);
    Term under = bin;
    size_t abs = bit_offset;
    if (s == Sub::SubBin || s == Sub::MatchState) {
        under = p[1];
        if (s == Sub::SubBin) abs += size_t(p[2].raw);
    }
    Underlying u = underlying_of(under);
    if (abs == 0 && bit_size == u.bit_size) return under;
    size_t bytes = (bit_size + 7) / 8;
    uint8_t* data;
    Term copy = make_binary_uninit(a, bytes, &data);
    if (bytes) data[bytes - 1] = 0;
    copy_bits(u.base, abs, data, 0, bit_size);
    return bit_size % 8 ? make_sub_binary(a, copy, 0, bit_size) : copy;
}

size_t referenced_byte_size(Term bin) {
    const Term* p = boxed_ptr(bin);
    Sub s = header_sub(p[0]);
    if (s == Sub::SubBin || s == Sub::MatchState) p = boxed_ptr(p[1]);
    if (header_sub(p[0]) == Sub::RefcBin) return reinterpret_cast<const BinaryBlob*>(p[2].raw)->capacity;
    return size_t(p[1].raw);
}

void copy_bits(const uint8_t* src, size_t src_off, uint8_t* dst, size_t dst_off, size_t bits) {
    if (bits == 0) return;
    if (((src_off | dst_off) & 7) == 0) {
        size_t whole = bits >> 3;
        std::memmove(dst + (dst_off >> 3), src + (src_off >> 3), whole);
        unsigned rest = bits & 7;
        if (rest) put_bits_in_byte(dst, dst_off + whole * 8, rest, get_bits(src, src_off + whole * 8, rest));
        return;
    }
    // Bring the destination to a byte boundary, then move whole bytes, then the tail.
    if (dst_off & 7) {
        unsigned n = 8 - (dst_off & 7);
        if (n > bits) n = unsigned(bits);
        put_bits_in_byte(dst, dst_off, n, get_bits(src, src_off, n));
        src_off += n;
        dst_off += n;
        bits -= n;
    }
    // Whole bytes: each from two neighbouring source bytes (both inside the source, since 8 of
    // its bits remain), a loop the compiler vectorises; it was one get_bits call per byte, 20
    // times slower on term_to_binary of an unaligned bitstring (binary_SUITE's 2 GB case).
    uint8_t* d = dst + (dst_off >> 3);
    const uint8_t* s = src + (src_off >> 3);
    unsigned sh = unsigned(src_off & 7);
    size_t whole = bits >> 3;
    if (sh == 0) {
        std::memmove(d, s, whole);
    } else {
        for (size_t i = 0; i < whole; ++i) d[i] = uint8_t((s[i] << sh) | (s[i + 1] >> (8 - sh)));
    }
    src_off += whole * 8;
    dst_off += whole * 8;
    bits &= 7;
    if (bits) put_bits_in_byte(dst, dst_off, unsigned(bits), get_bits(src, src_off, unsigned(bits)));
}

}  // namespace beam
