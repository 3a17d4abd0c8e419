// The two sinks the external term encoder writes to, chosen at compile time: ByteWriter stores
// bytes, SizeCounter only counts them (erlang:external_size). The encoder is a template over
// them, so writing a byte is one store and counting one add, with no per-byte test of which
// it is (that test, and a push_back per byte, made term_to_binary 2.6 times slower than OTP's
// interpreter; bench/real/real_ext_term.erl).
#pragma once

#include <cstdint>
#include <cstring>

#include "vm/ext_term.hpp"

namespace beam {

// A window [cur, end) of a buffer that grows on demand. The encoder asks for room once for
// each piece whose size it knows (ensure), then stores without checks; only growing is out of
// line, through a virtual call that happens O(log n) times per encoding (the buffer doubles).
class ByteWriter {
public:
    static constexpr bool counting = false;

    void ensure(size_t n) {
        if (size_t(end_ - cur_) < n) [[unlikely]] grow_by(n);
    }
    // The stores below need room made by ensure() first.
    void u8(uint8_t v) { *cur_++ = v; }
    void u16(uint16_t v) {
        v = __builtin_bswap16(v);
        std::memcpy(cur_, &v, 2);
        cur_ += 2;
    }
    void u32(uint32_t v) {
        v = __builtin_bswap32(v);
        std::memcpy(cur_, &v, 4);
        cur_ += 4;
    }
    void raw(const uint8_t* p, size_t n) {
        std::memcpy(cur_, p, n);
        cur_ += n;
    }
    // Room for n bytes the caller fills in itself.
    uint8_t* skip(size_t n) {
        uint8_t* p = cur_;
        cur_ += n;
        return p;
    }
    // Makes its own room.
    void bytes(const uint8_t* p, size_t n) {
        ensure(n);
        raw(p, n);
    }
    size_t pos() const { return size_t(cur_ - base_); }
    void patch_u32(size_t at, uint32_t v) {
        v = __builtin_bswap32(v);
        std::memcpy(base_ + at, &v, 4);
    }

protected:
    ByteWriter() = default;
    ~ByteWriter() = default;
    // Leaves at least n free bytes after cur_; may move the buffer (base_, cur_, end_).
    virtual void grow_by(size_t n) = 0;

    uint8_t* base_ = nullptr;
    uint8_t* cur_ = nullptr;
    uint8_t* end_ = nullptr;
};

// The same interface, counting.
class SizeCounter {
public:
    static constexpr bool counting = true;

    explicit SizeCounter(size_t start) : n_(start) {}
    void ensure(size_t) {}
    void u8(uint8_t) { n_ += 1; }
    void u16(uint16_t) { n_ += 2; }
    void u32(uint32_t) { n_ += 4; }
    void raw(const uint8_t*, size_t n) { n_ += n; }
    void bytes(const uint8_t*, size_t n) { n_ += n; }
    size_t pos() const { return n_; }
    void patch_u32(size_t, uint32_t) {}

private:
    size_t n_;
};

// Writes the encoding of `t` without the version byte (vm/ext_term_encode.cpp).
Result<void> encode_body(Term t, ByteWriter& out, const EncodeOptions& opts);

// The compressed form of an encoded body: [80, body size (4 bytes), zlib stream], written to
// `out`, which has room for compressed_bound(body_size) bytes. Answers its length, or 0 when
// it would not make the whole term smaller (OTP then keeps the plain encoding) or zlib fails.
size_t compressed_bound(size_t body_size);
size_t compress_body(const uint8_t* body, size_t body_size, int level, uint8_t* out);

}  // namespace beam
