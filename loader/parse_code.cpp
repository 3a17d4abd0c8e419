// The Code chunk: a header, then generic instructions (opcode byte + compact-term operands).
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "loader/compact_term.hpp"
#include "loader/generic_ops.hpp"
#include "loader/parse_context.hpp"
#include "vm/atom_table.hpp"

namespace beam::loader {

// OTP's BEAM_FORMAT_NUMBER: bumped only if generic instructions change meaning.
static constexpr uint32_t INSTRUCTION_SET = 0;
// erlc writes 16 header bytes after the sub-size word; a larger sub-size leaves room for fields
// added later, which we skip as OTP does.
static constexpr uint32_t MIN_CODE_HEADER = 16;
// Bounds the label bitmap a corrupt header could ask for.
static constexpr uint32_t MAX_LABELS = 1u << 24;

Result<void> parse_code_header(ParseContext& ctx, const Chunk& c) {
    ByteReader r = ctx.reader(c);
    uint32_t sub_size = 0, set = 0, max_op = 0, labels = 0, functions = 0;
    if (!r.u32(sub_size) || !r.u32(set) || !r.u32(max_op) || !r.u32(labels) || !r.u32(functions))
        return ctx.fail(c, c.offset, "truncated header");
    if (sub_size < MIN_CODE_HEADER || sub_size > c.data.size() - 4)
        return ctx.fail(c, c.offset, fmt::format("bad header size {}", sub_size));
    if (set != INSTRUCTION_SET) return ctx.fail(c, c.offset + 4, fmt::format("unknown instruction set {}", set));
    if (max_op > MAX_GENERIC_OPCODE)
        return ctx.fail(c, c.offset + 8, fmt::format("max opcode {} is newer than this loader ({})", max_op,
                                                     MAX_GENERIC_OPCODE));
    if (labels > MAX_LABELS || labels > c.data.size())
        return ctx.fail(c, c.offset + 12, fmt::format("label count {} out of range", labels));
    if (functions > c.data.size()) return ctx.fail(c, c.offset + 16, fmt::format("function count {} out of range", functions));
    ctx.m.label_count = labels;
    ctx.m.function_count = functions;
    ctx.has_code_header = true;
    return {};
}

// Operands that index the import table (call_ext*, bif*, gc_bif*) or FunT (make_fun*).
enum class IndexKind { None, Import, Lambda };
static IndexKind operand_index_kind(unsigned op, size_t arg) {
    switch (op) {
    case op_call_ext: case op_call_ext_last: case op_call_ext_only:
        return arg == 1 ? IndexKind::Import : IndexKind::None;
    case op_bif0:
        return arg == 0 ? IndexKind::Import : IndexKind::None;
    case op_bif1: case op_bif2:
        return arg == 1 ? IndexKind::Import : IndexKind::None;
    case op_gc_bif1: case op_gc_bif2: case op_gc_bif3:
        return arg == 2 ? IndexKind::Import : IndexKind::None;
    case op_make_fun2: case op_make_fun3:
        return arg == 0 ? IndexKind::Lambda : IndexKind::None;
    case op_call_fun2:  // the tag is a FunT index when the fun is known to be local
        return arg == 0 ? IndexKind::Lambda : IndexKind::None;
    default:
        return IndexKind::None;
    }
}

// Operands that may hold an unsigned value too large for a word (OpKind::Overflow), as in
// OTP's ops.tab: a tail test of more bits than any binary can have can never succeed.
static bool accepts_overflow(uint8_t op, size_t arg) { return op == op_bs_test_tail2 && arg == 2; }

static void note_labels(const Operand& op, std::vector<uint32_t>& refs) {
    if (op.kind == OpKind::Label && op.value != 0) refs.push_back(uint32_t(op.value));
    for (const Operand& e : op.list) note_labels(e, refs);
}

Result<void> parse_code(ParseContext& ctx, const Chunk& c) {
    ParsedModule& m = ctx.m;
    ByteReader header = ctx.reader(c);
    uint32_t sub_size = 0;
    (void)header.u32(sub_size);  // validated by parse_code_header
    ByteReader r(c.data.subspan(4 + sub_size), c.offset + 4 + sub_size);

    CompactContext cc{m.atoms, m.literals, m.label_count, &ctx.area};
    std::vector<bool> defined(m.label_count, false);
    std::vector<uint32_t> referenced;
    uint32_t functions = 0;
    bool ended = false;
    // Nearly every instruction takes two bytes or more (an opcode and an operand): reserving
    // half the code's bytes means the vector regrows once at most (each regrowth left a freed
    // block as large as the last, still resident), and the part never written is never
    // touched, so it costs no memory (docs/benchmarks.md, "Issue 11: quick start-up"). Capped
    // so that a huge or corrupt Code chunk cannot ask for gigabytes before it is parsed.
    constexpr size_t MAX_RESERVED_INSTRUCTIONS = size_t(1) << 20;
    m.code.reserve(std::min(r.remaining() / 2, MAX_RESERVED_INSTRUCTIONS));
    while (!ended) {
        size_t at = r.file_offset();
        uint8_t op = 0;
        if (!r.u8(op)) return ctx.fail(c, at, "code ends without int_code_end");
        if (!is_generic_opcode(op)) return ctx.fail(c, at, fmt::format("unknown opcode {}", op));
        const GenericOpInfo& info = GENERIC_OPS[op];
        if (info.obsolete)
            return ctx.fail(c, at, fmt::format("obsolete opcode {} ({}); recompile the module", op, info.name));
        Operand* args = m.operands.take(info.arity);
        GenericInstr in{op, OperandRange(args, info.arity)};
        for (size_t i = 0; i < info.arity; ++i) {
            if (operand_index_kind(op, i) == IndexKind::None && read_short_operand(r, cc, args[i])) {
                if (args[i].kind == OpKind::Label && args[i].value != 0) referenced.push_back(uint32_t(args[i].value));
                continue;
            }
            size_t arg_at = r.file_offset();
            auto operand = read_compact_operand(r, cc);
            if (!operand) return ctx.fail(c, operand.error());
            if (operand->kind == OpKind::Overflow && !accepts_overflow(op, i))
                return ctx.fail(c, arg_at, fmt::format("{}: operand value out of range", info.name));
            IndexKind ik = operand_index_kind(op, i);
            if (ik != IndexKind::None && operand->kind == OpKind::Unsigned) {
                size_t limit = ik == IndexKind::Import ? m.imports.size() : m.lambdas.size();
                if (uint64_t(operand->value) >= limit)
                    return ctx.fail(c, arg_at, fmt::format("{}: {} index {} out of range ({} entries)", info.name,
                                                          ik == IndexKind::Import ? "import" : "fun",
                                                          operand->value, limit));
            } else if (ik != IndexKind::None && op != op_call_fun2) {
                return ctx.fail(c, arg_at, fmt::format("{}: expected an index operand", info.name));
            }
            note_labels(*operand, referenced);
            args[i] = std::move(*operand);
        }
        switch (op) {
        case op_label: {
            const Operand& l = in.args[0];
            if (l.kind != OpKind::Unsigned || l.value == 0 || uint64_t(l.value) >= m.label_count)
                return ctx.fail(c, at, fmt::format("label {} out of range (label count {})", l.value, m.label_count));
            if (defined[l.value]) return ctx.fail(c, at, fmt::format("label {} defined twice", l.value));
            defined[l.value] = true;
            break;
        }
        case op_func_info:
            if (++functions > m.function_count)
                return ctx.fail(c, at, fmt::format("more functions than the header's {}", m.function_count));
            break;
        case op_int_code_end:
            ended = true;
            break;
        default:
            break;
        }
        m.code.push_back(in);
    }
    for (uint32_t l : referenced)
        if (!defined[l]) return ctx.fail(c, c.offset, fmt::format("label {} is used but never defined", l));
    auto check_defined = [&](const std::vector<ExportEntry>& table, const char* what) -> Result<void> {
        for (const ExportEntry& e : table)
            if (!defined[e.label])
                return make_error(fmt::format("{}: {} {}/{} points at undefined label {}", ctx.label, what,
                                              atom_name(e.function), e.arity, e.label));
        return {};
    };
    BEAM_TRY_VOID(check_defined(m.exports, "export"));
    BEAM_TRY_VOID(check_defined(m.locals, "local function"));
    for (const LambdaEntry& e : m.lambdas)
        if (!defined[e.label])
            return make_error(fmt::format("{}: fun {}/{} points at undefined label {}", ctx.label,
                                          atom_name(e.function), e.arity, e.label));
    return {};
}

}  // namespace beam::loader
