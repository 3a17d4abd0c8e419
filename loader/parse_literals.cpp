// LitT (zlib-compressed table of external-format terms), Attr and CInf (one term each).
#include <fmt/format.h>
#include <vector>
#include <zlib.h>

#include "loader/beam_inflate.hpp"
#include "loader/parse_context.hpp"
#include "vm/ext_term.hpp"

namespace beam::loader {

// deflate cannot compress better than about 1032:1, so a larger claim is a corrupt size
// field; refusing it keeps a 4-byte field from asking for gigabytes.
static constexpr uint64_t MAX_DEFLATE_RATIO = 1032;

static Result<void> parse_literal_table(ParseContext& ctx, const Chunk& c, std::span<const uint8_t> table,
                                        size_t base) {
    ByteReader r(table, base);
    uint32_t count = 0;
    if (!r.u32(count)) return ctx.fail(c, r.file_offset(), "truncated literal count");
    if (uint64_t(count) * 5 > r.remaining())
        return ctx.fail(c, r.file_offset(), fmt::format("literal count {} exceeds the table", count));
    ctx.m.literals.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = r.file_offset();
        uint32_t size = 0;
        std::span<const uint8_t> bytes;
        if (!r.u32(size) || !r.bytes(size, bytes)) return ctx.fail(c, at, fmt::format("literal {} truncated", i));
        size_t used = 0;
        auto t = decode_external(ctx.area, bytes, &used);
        if (!t) return ctx.fail(c, at, fmt::format("literal {}: {}", i, t.error().message));
        if (used != size) return ctx.fail(c, at, fmt::format("literal {}: {} bytes left over", i, size - used));
        ctx.m.literals.push_back(*t);
    }
    if (!r.at_end()) return ctx.fail(c, r.file_offset(), "bytes after the last literal");
    return {};
}

Result<void> parse_literals(ParseContext& ctx, const Chunk& c) {
    ByteReader r = ctx.reader(c);
    uint32_t raw_size = 0;
    if (!r.u32(raw_size)) return ctx.fail(c, c.offset, "truncated size");
    std::span<const uint8_t> packed = r.rest();
    if (raw_size == 0)  // stored without compression
        return parse_literal_table(ctx, c, packed, r.file_offset());
    if (raw_size > packed.size() * MAX_DEFLATE_RATIO + 64)
        return ctx.fail(c, c.offset, fmt::format("uncompressed size {} impossible for {} compressed bytes",
                                                 raw_size, packed.size()));
    // The same bound as for a compressed module: a file inflated from a small gzip stream
    // could otherwise claim (and allocate) up to 4 GiB here.
    if (raw_size > MAX_INFLATED_BEAM)
        return ctx.fail(c, c.offset, fmt::format("uncompressed size {} past the {} MiB limit", raw_size,
                                                 MAX_INFLATED_BEAM >> 20));
    std::vector<uint8_t> table(raw_size);
    uLongf out_len = raw_size;
    uLong in_len = packed.size();
    int rc = uncompress2(table.data(), &out_len, packed.data(), &in_len);
    if (rc != Z_OK || out_len != raw_size)
        return ctx.fail(c, r.file_offset(), fmt::format("bad zlib data ({})", rc == Z_OK ? "size mismatch" : zError(rc)));
    // Offsets inside the decompressed table are reported relative to the chunk's data.
    return parse_literal_table(ctx, c, table, r.file_offset());
}

Result<Term> parse_term_chunk(ParseContext& ctx, const Chunk& c) {
    size_t used = 0;
    auto t = decode_external(ctx.area, c.data, &used);
    if (!t) return ctx.fail(c, c.offset, t.error().message);
    if (used != c.data.size()) return ctx.fail(c, c.offset + used, "bytes after the term");
    return *t;
}

}  // namespace beam::loader
