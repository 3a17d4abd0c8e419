// term_to_binary's result written in place: the encoder writes into the off-heap blob that
// becomes the binary, so the bytes are not copied from a buffer afterwards, and compression
// reads that blob and writes into the blob of the compressed binary. Both are cut to their
// size at the end (binary:referenced_byte_size/1 sees exactly the encoding, as on OTP).
#include <algorithm>
#include <zlib.h>

#include "vm/binary.hpp"
#include "vm/ext_term.hpp"
#include "vm/ext_term_tags.hpp"
#include "vm/ext_term_writer.hpp"

namespace beam {

size_t compressed_bound(size_t body_size) { return 5 + compressBound(uLong(body_size)); }

// OTP: [80, uncompressed size of the body (without 131), zlib stream], kept only if the whole
// result is smaller than the uncompressed encoding.
size_t compress_body(const uint8_t* body, size_t body_size, int level, uint8_t* out) {
    uLongf len = compressBound(uLong(body_size));
    if (compress2(out + 5, &len, body, uLong(body_size), std::min(level, 9)) != Z_OK) return 0;
    if (len + 5 >= body_size) return 0;
    out[0] = ext::COMPRESSED;
    for (int i = 0; i < 4; ++i) out[1 + i] = uint8_t(body_size >> (24 - 8 * i));
    return 5 + len;
}

namespace {

// A blob of one owner that grows by doubling (realloc; the allocator often extends in place).
class BlobWriter final : public ByteWriter {
public:
    static constexpr size_t INITIAL = 256;

    explicit BlobWriter(size_t capacity) : blob_(BinaryBlob::create_or_exit(capacity)) { rebase(0); }
    ~BlobWriter() {
        if (blob_) blob_->release();
    }
    BlobWriter(const BlobWriter&) = delete;
    BlobWriter& operator=(const BlobWriter&) = delete;

    const uint8_t* data() const { return base_; }
    // The binary of the bytes written so far; the writer is empty afterwards.
    Term to_binary(TermAllocator& a) {
        size_t n = pos();
        if (n <= HEAP_BIN_LIMIT) return make_binary(a, base_, n);  // a heap binary, as OTP's
        BinaryBlob* b = BinaryBlob::resize_or_exit(blob_, n);
        blob_ = nullptr;
        b->size = n;
        return make_binary_from_blob(a, b);
    }

private:
    void grow_by(size_t n) override {
        size_t used = pos();
        blob_ = BinaryBlob::resize_or_exit(blob_, std::max(2 * blob_->capacity, used + n));
        rebase(used);
    }
    void rebase(size_t used) {
        base_ = blob_->data;
        cur_ = base_ + used;
        end_ = base_ + blob_->capacity;
    }
    BinaryBlob* blob_;
};

}  // namespace

Result<Term> encode_external_binary(TermAllocator& a, Term t, EncodeOptions opts) {
    BlobWriter plain(BlobWriter::INITIAL);
    plain.ensure(1);
    plain.u8(ext::VERSION);
    BEAM_TRY_VOID(encode_body(t, plain, opts));
    if (opts.compressed <= 0) return plain.to_binary(a);
    size_t body = plain.pos() - 1;
    BlobWriter packed(1 + compressed_bound(body));
    packed.u8(ext::VERSION);
    size_t n = compress_body(plain.data() + 1, body, opts.compressed, packed.skip(0));
    if (n == 0) return plain.to_binary(a);
    packed.skip(n);
    return packed.to_binary(a);
}

}  // namespace beam
