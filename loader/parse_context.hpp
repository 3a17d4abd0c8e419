// Shared state of one parse_beam call, and the per-chunk parsers it runs (internal to loader/).
#pragma once

#include <fmt/format.h>
#include <string>

#include "loader/beam_file.hpp"
#include "loader/beam_module.hpp"
#include "loader/byte_reader.hpp"

namespace beam::loader {

struct ParseContext {
    ParsedModule& m;
    LiteralArea& area;
    std::string label = "beam file";  // "<module>.beam" once the atom table is read
    bool has_code_header = false;

    // "m.beam: chunk Code at offset 1234: unknown opcode 250"
    Error fail(const Chunk& c, size_t offset, std::string_view why) const {
        return make_error(fmt::format("{}: chunk {} at offset {}: {}", label, c.id, offset, why));
    }
    // Wraps an error of the form "at offset N: reason" from a reader.
    Error fail(const Chunk& c, const Error& inner) const {
        return make_error(fmt::format("{}: chunk {} {}", label, c.id, inner.message));
    }
    Error missing(std::string_view id) const { return make_error(fmt::format("{}: missing chunk {}", label, id)); }
    ByteReader reader(const Chunk& c) const { return ByteReader(c.data, c.offset); }
};

Result<void> parse_atoms(ParseContext& ctx, const Chunk& c, bool utf8);
Result<void> parse_imports(ParseContext& ctx, const Chunk& c);
Result<void> parse_function_table(ParseContext& ctx, const Chunk& c, std::vector<ExportEntry>& out);
Result<void> parse_lambdas(ParseContext& ctx, const Chunk& c);
Result<void> parse_literals(ParseContext& ctx, const Chunk& c);
// Attr and CInf: the whole chunk is one term in the external format.
Result<Term> parse_term_chunk(ParseContext& ctx, const Chunk& c);
Result<void> parse_code_header(ParseContext& ctx, const Chunk& c);
Result<void> parse_code(ParseContext& ctx, const Chunk& c);
Result<void> parse_lines(ParseContext& ctx, const Chunk& c);

}  // namespace beam::loader
