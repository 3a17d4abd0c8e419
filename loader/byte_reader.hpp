// A bounds-checked big-endian reader over part of a .beam file. Every read says whether it
// succeeded; callers turn failures into errors naming the chunk and `file_offset()`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace beam::loader {

class ByteReader {
public:
    // `base` is the offset of bytes[0] within the whole file, for messages.
    ByteReader(std::span<const uint8_t> bytes, size_t base = 0) : bytes_(bytes), base_(base) {}

    size_t pos() const { return pos_; }
    size_t file_offset() const { return base_ + pos_; }
    size_t remaining() const { return bytes_.size() - pos_; }
    bool at_end() const { return pos_ == bytes_.size(); }

    // The next byte without taking it; false at the end.
    bool peek(uint8_t& out) const {
        if (remaining() < 1) return false;
        out = bytes_[pos_];
        return true;
    }
    bool u8(uint8_t& out) {
        if (remaining() < 1) return false;
        out = bytes_[pos_++];
        return true;
    }
    bool u16(uint16_t& out) {
        if (remaining() < 2) return false;
        out = uint16_t(bytes_[pos_] << 8 | bytes_[pos_ + 1]);
        pos_ += 2;
        return true;
    }
    bool u32(uint32_t& out) {
        if (remaining() < 4) return false;
        out = uint32_t(bytes_[pos_]) << 24 | uint32_t(bytes_[pos_ + 1]) << 16 | uint32_t(bytes_[pos_ + 2]) << 8 |
              uint32_t(bytes_[pos_ + 3]);
        pos_ += 4;
        return true;
    }
    bool bytes(size_t n, std::span<const uint8_t>& out) {
        if (remaining() < n) return false;
        out = bytes_.subspan(pos_, n);
        pos_ += n;
        return true;
    }
    bool skip(size_t n) {
        if (remaining() < n) return false;
        pos_ += n;
        return true;
    }
    std::span<const uint8_t> rest() const { return bytes_.subspan(pos_); }

private:
    std::span<const uint8_t> bytes_;
    size_t base_;
    size_t pos_ = 0;
};

}  // namespace beam::loader
