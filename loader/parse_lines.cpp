// The Line chunk: the table that `line N` instructions index, and the source file names.
//   version, flags, line instruction count, item count, name count (u32 each),
//   items (compact terms: `a` F switches to file F, `i` L is a line in the current file),
//   names (u16 length + UTF-8 bytes each). Item 0 is implicit: "no location".
#include <fmt/format.h>

#include "loader/compact_term.hpp"
#include "loader/generic_ops.hpp"
#include "loader/parse_context.hpp"
#include "vm/atom_table.hpp"

namespace beam::loader {

Result<void> parse_lines(ParseContext& ctx, const Chunk& c) {
    ParsedModule& m = ctx.m;
    ByteReader r = ctx.reader(c);
    uint32_t version = 0, flags = 0, instr_count = 0, item_count = 0, name_count = 0;
    if (!r.u32(version)) return ctx.fail(c, c.offset, "truncated header");
    // OTP ignores a Line chunk of a version it does not know rather than refusing the module.
    if (version != 0) return {};
    if (!r.u32(flags) || !r.u32(instr_count) || !r.u32(item_count) || !r.u32(name_count))
        return ctx.fail(c, c.offset, "truncated header");
    if (item_count > r.remaining() || name_count > r.remaining() / 2)
        return ctx.fail(c, c.offset, fmt::format("{} items and {} names exceed the chunk", item_count, name_count));

    m.line_items.assign(1, LineItem{0, 0});
    m.line_items.reserve(item_count + 1);
    uint32_t file = 0;
    while (m.line_items.size() <= item_count) {
        size_t at = r.file_offset();
        auto raw = read_compact_raw(r);
        if (!raw) return ctx.fail(c, raw.error());
        if (!raw->big.empty() || raw->value < 0 || raw->value > INT32_MAX)
            return ctx.fail(c, at, "line item out of range");
        if (raw->tag == CompactTag::a) {
            if (uint64_t(raw->value) > name_count)
                return ctx.fail(c, at, fmt::format("file index {} out of range ({} names)", raw->value, name_count));
            file = uint32_t(raw->value);
        } else if (raw->tag == CompactTag::i) {
            m.line_items.push_back(LineItem{file, uint32_t(raw->value)});
        } else {
            return ctx.fail(c, at, "line item is neither a line nor a file");
        }
    }
    // File 0 is the module's own source, which the chunk does not name; OTP shows Module.erl.
    m.files.clear();
    m.files.push_back(fmt::format("{}.erl", atom_name(m.name)));
    for (uint32_t i = 0; i < name_count; ++i) {
        size_t at = r.file_offset();
        uint16_t len = 0;
        std::span<const uint8_t> text;
        if (!r.u16(len) || !r.bytes(len, text)) return ctx.fail(c, at, fmt::format("file name {} truncated", i + 1));
        m.files.emplace_back(text.begin(), text.end());
    }
    for (const GenericInstr& in : m.code)
        if (in.opcode == op_line && in.args[0].kind == OpKind::Unsigned &&
            uint64_t(in.args[0].value) >= m.line_items.size())
            return ctx.fail(c, c.offset, fmt::format("line instruction refers to item {} of {}", in.args[0].value,
                                                     m.line_items.size() - 1));
    return {};
}

}  // namespace beam::loader
