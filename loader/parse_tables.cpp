// AtU8/Atom, ImpT, ExpT/LocT and FunT: fixed-layout tables of big-endian words and atoms.
#include <fmt/format.h>

#include "loader/parse_context.hpp"
#include "vm/atom_table.hpp"
#include "vm/utf8_chars.hpp"

namespace beam::loader {

// The atom table's UTF-8 check (vm/utf8_chars.hpp): well-formed, and its characters counted.
static bool utf8_chars(std::span<const uint8_t> s, size_t& chars) { return beam::utf8_chars(s.data(), s.size(), chars); }

Result<void> parse_atoms(ParseContext& ctx, const Chunk& c, bool utf8) {
    ByteReader r = ctx.reader(c);
    uint32_t count = 0;
    if (!r.u32(count)) return ctx.fail(c, r.file_offset(), "truncated atom count");
    // OTP 28 marks a different length encoding with a negative count; OTP 25 never writes it.
    if (count > r.remaining()) return ctx.fail(c, c.offset, fmt::format("atom count {} exceeds the chunk", count));
    if (count == 0) return ctx.fail(c, c.offset, "no atoms (the module name is atom 1)");
    ctx.m.atoms.assign(1, NIL);
    ctx.m.atoms.reserve(count + 1);
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = r.file_offset();
        uint8_t len = 0;
        std::span<const uint8_t> text;
        if (!r.u8(len) || !r.bytes(len, text)) return ctx.fail(c, at, fmt::format("atom {} truncated", i + 1));
        std::string s;
        if (utf8) {
            size_t chars = 0;
            if (!utf8_chars(text, chars)) return ctx.fail(c, at, fmt::format("atom {} is not valid UTF-8", i + 1));
            s.assign(text.begin(), text.end());
        } else {
            for (uint8_t ch : text) {  // latin-1 to UTF-8
                if (ch < 0x80) s += char(ch);
                else { s += char(0xC0 | ch >> 6); s += char(0x80 | (ch & 0x3F)); }
            }
        }
        auto a = AtomTable::instance().intern(s);
        if (!a) return ctx.fail(c, at, "atom table full");
        ctx.m.atoms.push_back(*a);
    }
    ctx.m.name = ctx.m.atoms[1];
    ctx.label = fmt::format("{}.beam", atom_name(ctx.m.name));
    return {};
}

static bool read_atom(ParseContext& ctx, ByteReader& r, Term& out) {
    uint32_t idx = 0;
    if (!r.u32(idx) || idx == 0 || idx >= ctx.m.atoms.size()) return false;
    out = ctx.m.atoms[idx];
    return true;
}

// Reads the entry count of a table whose entries are `entry_bytes` long.
static Result<uint32_t> table_count(ParseContext& ctx, const Chunk& c, ByteReader& r, size_t entry_bytes) {
    uint32_t count = 0;
    if (!r.u32(count)) return ctx.fail(c, c.offset, "truncated entry count");
    if (uint64_t(count) * entry_bytes > r.remaining())
        return ctx.fail(c, c.offset, fmt::format("{} entries exceed the chunk size {}", count, c.data.size()));
    return count;
}

static constexpr uint32_t MAX_ARITY = 255;

Result<void> parse_imports(ParseContext& ctx, const Chunk& c) {
    ByteReader r = ctx.reader(c);
    uint32_t count = BEAM_TRY(table_count(ctx, c, r, 12));
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = r.file_offset();
        ImportEntry e{};
        if (!read_atom(ctx, r, e.module) || !read_atom(ctx, r, e.function))
            return ctx.fail(c, at, fmt::format("import {}: atom index out of range", i));
        if (!r.u32(e.arity) || e.arity > MAX_ARITY) return ctx.fail(c, at, fmt::format("import {}: bad arity", i));
        ctx.m.imports.push_back(e);
    }
    return {};
}

Result<void> parse_function_table(ParseContext& ctx, const Chunk& c, std::vector<ExportEntry>& out) {
    ByteReader r = ctx.reader(c);
    uint32_t count = BEAM_TRY(table_count(ctx, c, r, 12));
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = r.file_offset();
        ExportEntry e{};
        if (!read_atom(ctx, r, e.function)) return ctx.fail(c, at, fmt::format("entry {}: atom index out of range", i));
        if (!r.u32(e.arity) || e.arity > MAX_ARITY) return ctx.fail(c, at, fmt::format("entry {}: bad arity", i));
        if (!r.u32(e.label) || e.label == 0 || e.label >= ctx.m.label_count)
            return ctx.fail(c, at, fmt::format("entry {}: label {} out of range (label count {})", i, e.label,
                                               ctx.m.label_count));
        out.push_back(e);
    }
    return {};
}

Result<void> parse_lambdas(ParseContext& ctx, const Chunk& c) {
    ByteReader r = ctx.reader(c);
    uint32_t count = BEAM_TRY(table_count(ctx, c, r, 24));
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = r.file_offset();
        LambdaEntry e{};
        if (!read_atom(ctx, r, e.function)) return ctx.fail(c, at, fmt::format("fun {}: atom index out of range", i));
        if (!r.u32(e.arity) || !r.u32(e.label) || !r.u32(e.index) || !r.u32(e.num_free) || !r.u32(e.old_uniq))
            return ctx.fail(c, at, fmt::format("fun {}: truncated", i));
        if (e.arity > MAX_ARITY || e.num_free > e.arity)
            return ctx.fail(c, at, fmt::format("fun {}: bad arity {} with {} free variables", i, e.arity, e.num_free));
        if (e.label == 0 || e.label >= ctx.m.label_count)
            return ctx.fail(c, at, fmt::format("fun {}: label {} out of range (label count {})", i, e.label,
                                               ctx.m.label_count));
        ctx.m.lambdas.push_back(e);
    }
    return {};
}

}  // namespace beam::loader
