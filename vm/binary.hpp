// Binaries and bitstrings.
//
//   HeapBin   [hdr arity=1+W][byte size][bytes ... padded to W words]       up to 64 bytes
//   RefcBin   [hdr arity=3][byte size][BinaryBlob*][next RefcBin or null]   larger; off-heap
//   SubBin    [hdr arity=3][underlying HeapBin/RefcBin term][bit offset][bit size]
//   MatchState[hdr arity=3][underlying HeapBin/RefcBin term][bit position][bit end]
//
// A bitstring whose size is not a whole number of bytes, or a slice of another binary, is a
// SubBin; sub-binaries never nest (they always refer to the underlying HeapBin/RefcBin).
// Only word 1 of SubBin and MatchState is a term; the GC copies the rest as raw data.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

inline constexpr size_t HEAP_BIN_LIMIT = 64;

struct BinaryBlob {
    std::atomic<uint64_t> refc;
    size_t size;      // bytes in use
    size_t capacity;  // bytes allocated (writable binaries may grow in place)
    uint8_t data[1];

    // Throws std::bad_alloc when the memory cannot be had (or the request is beyond
    // allocation_ceiling_bytes()): for callers that answer enomem, as erts' fail-not-fatal
    // allocations do (enif_alloc_binary, file reads).
    static BinaryBlob* create(size_t capacity);
    // For Erlang's own binaries: out of memory ends the VM as on erl (vm/fatal_error.hpp).
    static BinaryBlob* create_or_exit(size_t capacity);
    // The blob moved to `capacity` bytes, its data kept up to the smaller size, for its only
    // owner: a binary built in place (term_to_binary) grows while written and is cut to its
    // size once done. Out of memory ends the VM, as create_or_exit.
    static BinaryBlob* resize_or_exit(BinaryBlob* b, size_t capacity);
    void retain() { refc.fetch_add(1, std::memory_order_relaxed); }
    void release();
    // Bytes of every blob alive in this OS process, headers included (erlang:memory(binary)).
    static size_t live_bytes();
};

inline bool is_binary_obj(Term t) {
    if (!is_boxed(t)) return false;
    Sub s = header_sub(box_header(t));
    return s == Sub::HeapBin || s == Sub::RefcBin || s == Sub::SubBin;
}

// A resolved view of any bitstring term.
struct BitView {
    const uint8_t* base;  // byte containing bit 0 of the data
    size_t bit_offset;    // 0..7 within base... or any offset; readers use base + bit_offset/8
    size_t bit_size;
    bool byte_aligned() const { return (bit_offset & 7) == 0; }
    bool whole_bytes() const { return (bit_size & 7) == 0; }
    size_t byte_size() const { return bit_size >> 3; }
    const uint8_t* bytes() const { return base + (bit_offset >> 3); }  // valid when byte_aligned
};

BitView bit_view(Term bin);  // `bin` must satisfy is_binary_obj

// First data byte of a HeapBin or RefcBin (not a SubBin): the interpreter's fast bit-syntax path.
inline const uint8_t* binary_data_base(Term bin) {
    const Term* b = boxed_ptr(bin);
    if (header_sub(b[0]) == Sub::HeapBin) return reinterpret_cast<const uint8_t*>(b + 2);
    return reinterpret_cast<const BinaryBlob*>(b[2].raw)->data;
}
inline bool is_bitstring(Term t) { return is_binary_obj(t); }
inline bool is_binary(Term t) { return is_binary_obj(t) && (bit_view(t).bit_size & 7) == 0; }

inline size_t heap_bin_words(size_t bytes) { return 2 + (bytes + 7) / 8; }
inline constexpr size_t REFC_BIN_WORDS = 4;
inline constexpr size_t SUB_BIN_WORDS = 4;

// Builds a binary holding a copy of `bytes` (heap or refc depending on size).
Term make_binary(TermAllocator& a, const uint8_t* bytes, size_t n);
inline Term make_binary(TermAllocator& a, std::string_view s) {
    return make_binary(a, reinterpret_cast<const uint8_t*>(s.data()), s.size());
}
// Builds an uninitialised binary of n bytes; *data receives where to write them. Out of memory
// ends the VM as on erl; try_make_binary_uninit answers NON_VALUE instead.
Term make_binary_uninit(TermAllocator& a, size_t n, uint8_t** data);
Term try_make_binary_uninit(TermAllocator& a, size_t n, uint8_t** data);
// A refc binary over `blob` (blob->size bytes, more than HEAP_BIN_LIMIT), taking over one of
// its references: a driver that read a packet into a blob hands it on without a copy.
Term make_binary_from_blob(TermAllocator& a, BinaryBlob* blob);
// A sub-binary of `bin` covering bits [bit_offset, bit_offset+bit_size) relative to `bin`.
Term make_sub_binary(TermAllocator& a, Term bin, size_t bit_offset, size_t bit_size);

// A part of `bin` as OTP hands one out (matching, binary_part, split_binary, binary:split):
// at most HEAP_BIN_LIMIT bytes are copied into a fresh heap binary, so a small slice never keeps
// a large binary alive (observable through binary:referenced_byte_size/1); larger parts are
// sub-binaries. Offsets as make_sub_binary's.
Term make_slice(TermAllocator& a, Term bin, size_t bit_offset, size_t bit_size);
// The bytes a binary keeps alive: the underlying binary's allocation (binary:referenced_byte_size).
size_t referenced_byte_size(Term bin);

// Copies `bits` bits starting at bit `src_off` of `src` to bit `dst_off` of `dst`.
void copy_bits(const uint8_t* src, size_t src_off, uint8_t* dst, size_t dst_off, size_t bits);

}  // namespace beam
