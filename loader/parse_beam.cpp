// parse_beam: runs the chunk parsers in dependency order (atoms, literals and the code header
// before the tables and code that refer to them) and computes the module's MD5. Every path that
// loads a module (load_module, prepare_loading, code:load_*, boot, namespaces, --watch, the
// command line) comes through parse_beam or beam_md5, so a gzip-compressed file is inflated
// here, once, for all of them.
#include <fmt/format.h>

#include "loader/beam_inflate.hpp"
#include "loader/beam_module.hpp"
#include "vm/md5.hpp"
#include "loader/parse_context.hpp"

namespace beam::loader {

// module_info(md5), as beam_lib:md5/1: MD5 over these chunks' data in this order, with each
// FunT entry's OldUniq word zeroed (so that it does not depend on the compiler's uniq hash).
static void compute_md5(const BeamFile& file, uint8_t out[16]) {
    static constexpr std::string_view order[] = {"Atom", "AtU8", "Code", "StrT", "ImpT",
                                                 "ExpT", "FunT", "LitT", "Meta"};
    static constexpr uint8_t zero[4] = {};
    Md5 md5;
    for (std::string_view id : order) {
        const Chunk* c = file.find(id);
        if (!c) continue;
        if (id != "FunT") {
            md5.update(c->data);
            continue;
        }
        std::span<const uint8_t> d = c->data;
        size_t head = std::min<size_t>(4, d.size());
        md5.update(d.first(head));
        size_t i = head;
        for (; i + 24 <= d.size(); i += 24) {
            md5.update(d.subspan(i, 20));
            md5.update({zero, 4});
        }
        md5.update(d.subspan(i));
    }
    md5.finish(out);
}

Result<std::array<uint8_t, 16>> beam_md5(std::span<const uint8_t> bytes) {
    std::vector<uint8_t> inflated;
    std::span<const uint8_t> plain = BEAM_TRY(plain_beam_bytes(bytes, inflated));
    BeamFile file = BEAM_TRY(read_beam_file(plain));
    std::array<uint8_t, 16> out;
    compute_md5(file, out.data());
    return out;
}

Result<ParsedModule> parse_beam(std::span<const uint8_t> bytes, LiteralArea& literals, bool stripped) {
    // The chunks point into `inflated` for a compressed file: it lives until parsing is done.
    std::vector<uint8_t> inflated;
    std::span<const uint8_t> plain = BEAM_TRY(plain_beam_bytes(bytes, inflated));
    BeamFile file = BEAM_TRY(read_beam_file(plain));
    ParsedModule m;
    ParseContext ctx{m, literals};

    if (const Chunk* c = file.find("AtU8")) BEAM_TRY_VOID(parse_atoms(ctx, *c, true));
    else if (const Chunk* old = file.find("Atom")) BEAM_TRY_VOID(parse_atoms(ctx, *old, false));
    else return ctx.missing("AtU8");

    const Chunk* code = file.find("Code");
    if (!code) return ctx.missing("Code");
    const Chunk* strt = file.find("StrT");
    if (!strt) return ctx.missing("StrT");
    const Chunk* impt = file.find("ImpT");
    if (!impt) return ctx.missing("ImpT");
    const Chunk* expt = file.find("ExpT");
    if (!expt) return ctx.missing("ExpT");

    BEAM_TRY_VOID(parse_code_header(ctx, *code));
    m.strings.assign(strt->data.begin(), strt->data.end());
    BEAM_TRY_VOID(parse_imports(ctx, *impt));
    BEAM_TRY_VOID(parse_function_table(ctx, *expt, m.exports));
    if (const Chunk* c = file.find("LocT")) BEAM_TRY_VOID(parse_function_table(ctx, *c, m.locals));
    if (const Chunk* c = file.find("FunT")) BEAM_TRY_VOID(parse_lambdas(ctx, *c));
    if (const Chunk* c = file.find("LitT")) BEAM_TRY_VOID(parse_literals(ctx, *c));
    BEAM_TRY_VOID(parse_code(ctx, *code));
    m.line_items.assign(1, LineItem{0, 0});
    if (!stripped) {
        if (const Chunk* c = file.find("Line")) BEAM_TRY_VOID(parse_lines(ctx, *c));
        if (const Chunk* c = file.find("Attr")) m.attributes = BEAM_TRY(parse_term_chunk(ctx, *c));
        if (const Chunk* c = file.find("CInf")) m.compile_info = BEAM_TRY(parse_term_chunk(ctx, *c));
    }
    // Type, Meta, Dbgi, Docs, ExCk and unknown chunks are accepted and not interpreted.
    compute_md5(file, m.md5);
    return m;
}

}  // namespace beam::loader
