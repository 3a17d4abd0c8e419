#include "loader/superinstructions.hpp"

#include "loader/generic_ops.hpp"

namespace beam::loader {

namespace {

bool is_reg(const Arg& a) { return a.kind == 'x' || a.kind == 'y'; }
bool is_src(const Arg& a) { return is_reg(a) || a.kind == 'c'; }
bool same_operand(const Operand& a, const Operand& b) { return a.kind == b.kind && a.value == b.value; }

}  // namespace

size_t emit_superinstruction(const std::vector<GenericInstr>& code, size_t i, Emitter& em, LiteralArea& literals) {
    if (i + 1 >= code.size()) return 0;
    const GenericInstr& a = code[i];
    const GenericInstr& b = code[i + 1];
    auto src = [&](const Operand& o) { return src_arg(o, literals); };
    switch (a.opcode) {
    case op_deallocate:
        if (b.opcode == op_return) {
            em.emit("deallocate_return", {ux(Word(a.args[0].value))});
            return 2;
        }
        return 0;
    case op_move: {
        Arg s1 = src(a.args[0]), d1 = src(a.args[1]);
        if (!is_src(s1) || !is_reg(d1)) return 0;
        if (b.opcode == op_return && d1.kind == 'x' && d1.w == 0) {
            em.emit("move_return", {s1});
            return 2;
        }
        if (b.opcode != op_move) return 0;
        Arg s2 = src(b.args[0]), d2 = src(b.args[1]);
        if (!is_reg(s2) || !is_reg(d2)) return 0;
        return em.try_emit("move2", {s1, d1, s2, d2}) ? 2 : 0;
    }
    case op_is_tuple:
        // test_arity checks that its operand is a tuple itself.
        if (b.opcode == op_test_arity && same_operand(a.args[0], b.args[0]) && same_operand(a.args[1], b.args[1])) {
            em.emit("test_arity", {lbl(uint32_t(b.args[0].value)), src(b.args[1]), ux(Word(b.args[2].value))});
            return 2;
        }
        return 0;
    case op_is_nonempty_list:
        if (b.opcode == op_get_list && same_operand(a.args[1], b.args[0])) {
            Arg l = src(a.args[1]), h = src(b.args[1]), t = src(b.args[2]);
            if (!is_reg(l) || !is_reg(h) || !is_reg(t)) return 0;
            return em.try_emit("is_nonempty_list_get_list", {lbl(uint32_t(a.args[0].value)), l, h, t}) ? 2 : 0;
        }
        return 0;
    default: return 0;
    }
}

}  // namespace beam::loader
