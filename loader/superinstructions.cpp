#include "loader/superinstructions.hpp"

#include <string>

#include "loader/generic_ops.hpp"
#include "loader/transform_bits.hpp"

namespace beam::loader {

namespace {

bool is_reg(const Arg& a) { return a.kind == 'x' || a.kind == 'y'; }
bool is_src(const Arg& a) { return is_reg(a) || a.kind == 'c'; }
bool same_operand(const Operand& a, const Operand& b) { return a.kind == b.kind && a.value == b.value; }
bool is_call(const GenericInstr& g) {
    return g.opcode == op_call || g.opcode == op_call_only || g.opcode == op_call_last;
}

// Where the call that ends a fused run is: code[k], or code[k + 1] after a line record
// (emit_superinstruction's header). 0 if neither is a call `accept` takes.
size_t call_index(const std::vector<GenericInstr>& code, size_t k, bool (*accept)(const GenericInstr&)) {
    if (k < code.size() && accept(code[k])) return k;
    if (k + 1 < code.size() && code[k].opcode == op_line && accept(code[k + 1])) return k + 1;
    return 0;
}
bool is_plain_call(const GenericInstr& g) { return g.opcode == op_call; }
bool is_call_only(const GenericInstr& g) { return g.opcode == op_call_only; }

// A fused run from code[first] through the call at code[c] (found by call_index): `base` with
// the operands `before`, then the call's own (Arity, Target, and the frame size of a
// call_last); the variant for call_only and call_last is base + "_only" / "_last". The line
// record before the call, if the run took one in, gets the fused instruction's address.
// Returns the generic instructions taken, 0 if nothing was emitted.
size_t emit_call(std::string base, std::vector<Arg> before, const std::vector<GenericInstr>& code, size_t first,
                 size_t c, Emitter& em, const LineRecorder& on_line) {
    const GenericInstr& call = code[c];
    before.push_back(ux(Word(call.args[0].value)));
    before.push_back(lbl(uint32_t(call.args[1].value)));
    if (call.opcode == op_call_only) base += "_only";
    if (call.opcode == op_call_last) {
        base += "_last";
        before.push_back(ux(Word(call.args[2].value)));
    }
    size_t pos = em.pos();
    if (!em.try_emit(base, before)) return 0;
    if (code[c - 1].opcode == op_line) on_line(code[c - 1], pos);
    return c - first + 1;
}

// test_arity at code[j] followed by one or two reads of the same tuple (the first not
// overwriting it): test_arity_get or test_arity_get_two. With `not_tuple` (the label of an
// is_tuple before it that fails elsewhere), is_tuple_arity_get or is_tuple_arity_get_two.
// Returns the instructions from code[j] on taken, 0 if the shape does not fit.
size_t emit_arity_gets(const std::vector<GenericInstr>& code, size_t j, Emitter& em, LiteralArea& literals,
                       const Arg* not_tuple = nullptr) {
    if (j + 1 >= code.size()) return 0;
    const GenericInstr& t = code[j];
    const GenericInstr& g1 = code[j + 1];
    if (g1.opcode != op_get_tuple_element || !same_operand(g1.args[0], t.args[1])) return 0;
    Arg src = src_arg(t.args[1], literals), d1 = src_arg(g1.args[2], literals);
    if (!is_reg(src) || !is_reg(d1)) return 0;
    Arg fail = lbl(uint32_t(t.args[0].value)), arity = ux(Word(t.args[2].value)), p1 = ux(Word(g1.args[1].value));
    if (j + 2 < code.size()) {
        const GenericInstr& g2 = code[j + 2];
        if (g2.opcode == op_get_tuple_element && same_operand(g2.args[0], t.args[1]) &&
            !same_operand(g1.args[2], t.args[1])) {
            Arg d2 = src_arg(g2.args[2], literals);
            std::vector<Arg> ops{fail, src, arity, p1, d1, ux(Word(g2.args[1].value)), d2};
            if (not_tuple) ops.insert(ops.begin(), *not_tuple);
            if (is_reg(d2) && em.try_emit(not_tuple ? "is_tuple_arity_get_two" : "test_arity_get_two", ops)) return 3;
        }
    }
    std::vector<Arg> ops{fail, src, arity, p1, d1};
    if (not_tuple) ops.insert(ops.begin(), *not_tuple);
    return em.try_emit(not_tuple ? "is_tuple_arity_get" : "test_arity_get", ops) ? 2 : 0;
}

// fmove's shapes (transform.cpp): fload unboxes into a float register, fstore boxes one.
bool is_fload(const GenericInstr& g) {
    return g.opcode == op_fmove && g.args[0].kind != OpKind::FloatReg && g.args[1].kind == OpKind::FloatReg;
}
bool is_fstore(const GenericInstr& g) {
    return g.opcode == op_fmove && g.args[0].kind == OpKind::FloatReg && g.args[1].kind != OpKind::FloatReg;
}

// fload + float arithmetic, fload + fload, fstore + fstore.
size_t emit_float_pair(const GenericInstr& a, const GenericInstr& b, Emitter& em, LiteralArea& literals) {
    auto u = [](const Operand& o) { return ux(Word(o.value)); };
    if (is_fload(a)) {
        Arg s = src_arg(a.args[0], literals);
        if (!is_src(s)) return 0;
        static const std::pair<uint8_t, const char*> arith[] = {
            {op_fadd, "fload_fadd"}, {op_fsub, "fload_fsub"}, {op_fmul, "fload_fmul"}, {op_fdiv, "fload_fdiv"}};
        for (auto [op, name] : arith)
            if (b.opcode == op)
                return em.try_emit(name, {s, u(a.args[1]), lbl(uint32_t(b.args[0].value)), u(b.args[1]),
                                          u(b.args[2]), u(b.args[3])})
                           ? 2
                           : 0;
        if (is_fload(b)) {
            Arg s2 = src_arg(b.args[0], literals);
            if (!is_src(s2)) return 0;
            return em.try_emit("fload2", {s, u(a.args[1]), s2, u(b.args[1])}) ? 2 : 0;
        }
        return 0;
    }
    if (is_fstore(a) && is_fstore(b)) {
        Arg d1 = src_arg(a.args[1], literals), d2 = src_arg(b.args[1], literals);
        if (!is_reg(d1) || !is_reg(d2)) return 0;
        return em.try_emit("fstore2", {u(a.args[0]), d1, u(b.args[0]), d2}) ? 2 : 0;
    }
    return 0;
}

// allocate N Live (already read) and one or two moves from code[j] on: allocate_move or
// allocate_move2. Returns the moves taken, 0 if the shape does not fit.
size_t emit_allocate_moves(const std::vector<GenericInstr>& code, size_t j, const Arg& n, const Arg& live, Emitter& em,
                           LiteralArea& literals, const LineRecorder& on_line) {
    if (j >= code.size() || code[j].opcode != op_move) return 0;
    // Three or four moves from x to y registers (a function saving its arguments).
    std::vector<Arg> saves{n, live};
    for (size_t k = j; k < code.size() && k < j + 4 && code[k].opcode == op_move; ++k) {
        Arg s = src_arg(code[k].args[0], literals), d = src_arg(code[k].args[1], literals);
        if (s.kind != 'x' || d.kind != 'y') break;
        saves.push_back(s);
        saves.push_back(d);
    }
    if (size_t moves = (saves.size() - 2) / 2; moves >= 3 && em.try_emit(moves == 4 ? "allocate_move4" : "allocate_move3", saves))
        return moves;
    Arg s1 = src_arg(code[j].args[0], literals), d1 = src_arg(code[j].args[1], literals);
    if (!is_src(s1) || !is_reg(d1)) return 0;
    if (j + 1 < code.size() && code[j + 1].opcode == op_move) {
        Arg s2 = src_arg(code[j + 1].args[0], literals), d2 = src_arg(code[j + 1].args[1], literals);
        if (is_reg(s2) && is_reg(d2) && em.try_emit("allocate_move2", {n, live, s1, d1, s2, d2})) return 2;
    }
    if (j + 1 < code.size() && code[j + 1].opcode == op_get_list) {
        const GenericInstr& g = code[j + 1];
        Arg l = src_arg(g.args[0], literals), h = src_arg(g.args[1], literals), t = src_arg(g.args[2], literals);
        if (is_reg(l) && is_reg(h) && is_reg(t) && em.try_emit("allocate_move_get_list", {n, live, s1, d1, l, h, t}))
            return 2;
    }
    if (size_t c = call_index(code, j + 1, is_plain_call))
        if (size_t taken = emit_call("allocate_move_call", {n, live, s1, d1}, code, j, c, em, on_line)) return taken;
    return em.try_emit("allocate_move", {n, live, s1, d1}) ? 1 : 0;
}

// is_nonempty_list Fail L; allocate N Live [; init_yregs]; move S D; get_list L H T, from
// code[i]: is_nonempty_list_allocate_move_get_list. Returns the instructions taken, 0 if the
// shape does not fit.
size_t emit_list_clause_head(const std::vector<GenericInstr>& code, size_t i, Emitter& em, LiteralArea& literals) {
    const GenericInstr& test = code[i];
    const GenericInstr& alloc = code[i + 1];
    if (alloc.opcode != op_allocate && alloc.opcode != op_allocate_zero) return 0;
    size_t j = i + 2;
    if (j < code.size() && (code[j].opcode == op_init_yregs || code[j].opcode == op_init)) ++j;
    if (j + 1 >= code.size() || code[j].opcode != op_move || code[j + 1].opcode != op_get_list ||
        !same_operand(code[j + 1].args[0], test.args[1]))
        return 0;
    auto src = [&](const Operand& o) { return src_arg(o, literals); };
    const GenericInstr& g = code[j + 1];
    Arg s = src(code[j].args[0]), d = src(code[j].args[1]), l = src(g.args[0]), h = src(g.args[1]), t = src(g.args[2]);
    if (!is_reg(s) || !is_reg(d) || !is_reg(l) || !is_reg(h) || !is_reg(t)) return 0;
    if (!em.try_emit("is_nonempty_list_allocate_move_get_list",
                     {lbl(uint32_t(test.args[0].value)), ux(Word(alloc.args[0].value)), ux(Word(alloc.args[1].value)),
                      s, d, l, h, t}))
        return 0;
    return j + 2 - i;
}

}  // namespace

size_t emit_superinstruction(const std::vector<GenericInstr>& code, size_t i, Emitter& em, LiteralArea& literals,
                             const LineRecorder& on_line) {
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
        if (size_t c = call_index(code, i + 1, is_call)) return emit_call("move_call", {s1, d1}, code, i, c, em, on_line);
        if (b.opcode != op_move) return 0;
        Arg s2 = src(b.args[0]), d2 = src(b.args[1]);
        if (!is_reg(s2) || !is_reg(d2)) return 0;
        if (size_t c = call_index(code, i + 2, is_plain_call))
            if (size_t taken = emit_call("move2_call", {s1, d1, s2, d2}, code, i, c, em, on_line)) return taken;
        return em.try_emit("move2", {s1, d1, s2, d2}) ? 2 : 0;
    }
    case op_trim:
        if (size_t c = call_index(code, i + 1, is_plain_call))
            return emit_call("trim_call", {ux(Word(a.args[0].value)), ux(Word(a.args[1].value))}, code, i, c, em, on_line);
        return 0;
    case op_allocate:
    case op_allocate_zero: {
        Arg n = ux(Word(a.args[0].value)), live = ux(Word(a.args[1].value));
        // allocate sets every y register to []: an init_yregs right after it has nothing to do,
        // and the moves after that still fuse with the allocate.
        size_t init = b.opcode == op_init_yregs || b.opcode == op_init ? 1 : 0;
        if (size_t moves = emit_allocate_moves(code, i + 1 + init, n, live, em, literals, on_line))
            return 1 + init + moves;
        if (!init) return 0;
        em.emit("allocate", {n, live});
        return 2;
    }
    case op_is_tagged_tuple:
        // is_tagged_tuple Fail A N Tag; get_tuple_element A Pos D
        if (b.opcode == op_get_tuple_element && same_operand(b.args[0], a.args[1])) {
            Arg t = src(a.args[1]), tag = src(a.args[3]), d = src(b.args[2]);
            if (!is_reg(t) || tag.kind != 'c' || !is_reg(d)) return 0;
            return em.try_emit("is_tagged_tuple_get", {lbl(uint32_t(a.args[0].value)), t, ux(Word(a.args[2].value)),
                                                       tag, ux(Word(b.args[1].value)), d})
                       ? 2
                       : 0;
        }
        return 0;
    case op_fmove: return emit_float_pair(a, b, em, literals);
    case op_bs_start_match3:
    case op_bs_start_match4: return start_match_get_integer(code, i, em);
    case op_test_heap:
        if (is_fstore(b)) {
            Arg d = src(b.args[1]);
            if (!is_reg(d)) return 0;
            return em.try_emit("test_heap_fstore",
                               {ux(Word(a.args[0].value)), ux(Word(a.args[1].value)), ux(Word(b.args[0].value)), d})
                       ? 2
                       : 0;
        }
        if (b.opcode == op_put_tuple2) {
            std::vector<Arg> elems;
            for (const Operand& e : b.args[1].list) elems.push_back(src(e));
            Arg d = src(b.args[0]);
            if (!is_reg(d)) return 0;
            em.emit("test_heap_put_tuple2",
                    {ux(Word(a.args[0].value)), ux(Word(a.args[1].value)), d, ux(elems.size())});
            for (const Arg& e : elems) em.raw_any(e);
            return 2;
        }
        if (b.opcode == op_put_list) {
            Arg h = src(b.args[0]), t = src(b.args[1]), d = src(b.args[2]);
            if (!is_src(h) || !is_src(t) || !is_reg(d)) return 0;
            if (i + 3 < code.size() && code[i + 2].opcode == op_move) {
                Arg s2 = src(code[i + 2].args[0]), d2 = src(code[i + 2].args[1]);
                if (size_t c = call_index(code, i + 3, is_call_only); c && is_reg(s2) && is_reg(d2))
                    if (size_t taken = emit_call("test_heap_put_list_move_call",
                                                 {ux(Word(a.args[0].value)), ux(Word(a.args[1].value)), h, t, d, s2, d2},
                                                 code, i, c, em, on_line))
                        return taken;
            }
            if (size_t c = call_index(code, i + 2, is_call_only))
                if (size_t taken = emit_call("test_heap_put_list_call",
                                             {ux(Word(a.args[0].value)), ux(Word(a.args[1].value)), h, t, d}, code, i,
                                             c, em, on_line))
                    return taken;
            if (i + 3 < code.size() && code[i + 2].opcode == op_deallocate && code[i + 3].opcode == op_return &&
                d.kind == 'x' && d.w == 0 &&
                em.try_emit("test_heap_put_list_return", {ux(Word(a.args[0].value)), ux(Word(a.args[1].value)), h, t,
                                                          ux(Word(code[i + 2].args[0].value))}))
                return 4;
            return em.try_emit("test_heap_put_list", {ux(Word(a.args[0].value)), ux(Word(a.args[1].value)), h, t, d})
                       ? 2
                       : 0;
        }
        return 0;
    case op_get_tuple_element:
        if (b.opcode == op_fmove && b.args[1].kind == OpKind::FloatReg && same_operand(a.args[2], b.args[0])) {
            Arg t = src(a.args[0]), d = src(a.args[2]);
            if (!is_reg(t) || !is_reg(d)) return 0;
            return em.try_emit("get_tuple_element_fload",
                               {t, ux(Word(a.args[1].value)), d, ux(Word(b.args[1].value))})
                       ? 2
                       : 0;
        }
        if (b.opcode == op_get_tuple_element && same_operand(a.args[0], b.args[0]) &&
            !same_operand(a.args[2], a.args[0])) {
            Arg t = src(a.args[0]), d1 = src(a.args[2]), d2 = src(b.args[2]);
            if (!is_reg(t) || !is_reg(d1) || !is_reg(d2)) return 0;
            return em.try_emit("get_two_tuple_elements",
                               {t, ux(Word(a.args[1].value)), d1, ux(Word(b.args[1].value)), d2})
                       ? 2
                       : 0;
        }
        if (size_t c = call_index(code, i + 1, is_call)) {
            Arg t = src(a.args[0]), d = src(a.args[2]);
            if (!is_reg(t) || !is_reg(d)) return 0;
            return emit_call("get_tuple_element_call", {t, ux(Word(a.args[1].value)), d}, code, i, c, em, on_line);
        }
        return 0;
    case op_test_arity: return emit_arity_gets(code, i, em, literals);
    case op_is_tuple:
        // test_arity checks that its operand is a tuple itself.
        if (b.opcode == op_test_arity && same_operand(a.args[0], b.args[0]) && same_operand(a.args[1], b.args[1])) {
            if (size_t n = emit_arity_gets(code, i + 1, em, literals)) return 1 + n;
            em.emit("test_arity", {lbl(uint32_t(b.args[0].value)), src(b.args[1]), ux(Word(b.args[2].value))});
            return 2;
        }
        // With its own failure label, the is_tuple goes into the test_arity's instruction.
        if (b.opcode == op_test_arity && same_operand(a.args[1], b.args[1])) {
            Arg not_tuple = lbl(uint32_t(a.args[0].value)), t = src(b.args[1]);
            if (size_t n = emit_arity_gets(code, i + 1, em, literals, &not_tuple)) return 1 + n;
            if (!is_reg(t)) return 0;
            return em.try_emit("is_tuple_test_arity",
                               {not_tuple, lbl(uint32_t(b.args[0].value)), t, ux(Word(b.args[2].value))})
                       ? 2
                       : 0;
        }
        // select_tuple_arity tests for a tuple itself: with the same failure label, the
        // is_tuple before it (the compiler's shape for a case on tuple size) is left out.
        if (b.opcode == op_select_tuple_arity && same_operand(a.args[1], b.args[0]) && same_operand(a.args[0], b.args[1]))
            return 1;
        return 0;
    case op_is_integer:
        // is_integer Fail A; is_ge Fail A Small: an integer at least a small constant.
        if (b.opcode == op_is_ge && same_operand(a.args[0], b.args[0]) && same_operand(a.args[1], b.args[1])) {
            Arg v = src(a.args[1]), c = src(b.args[2]);
            if (!is_reg(v) || c.kind != 'c' || !is_small(Term{c.w})) return 0;
            return em.try_emit("is_integer_ge_small", {lbl(uint32_t(a.args[0].value)), v, c}) ? 2 : 0;
        }
        return 0;
    case op_loop_rec:
        if (b.opcode == op_is_tagged_tuple && same_operand(a.args[1], b.args[1])) {
            Arg d = src(a.args[1]), tag = src(b.args[3]);
            if (!is_reg(d) || tag.kind != 'c') return 0;
            if (i + 3 < code.size()) {
                const GenericInstr& g = code[i + 2];
                const GenericInstr& t = code[i + 3];
                if (g.opcode == op_get_tuple_element && same_operand(g.args[0], a.args[1]) &&
                    t.opcode == op_is_eq_exact && same_operand(t.args[0], b.args[0]) &&
                    same_operand(t.args[1], g.args[2])) {
                    Arg e = src(g.args[2]), v = src(t.args[2]);
                    if (is_reg(e) && is_src(v) &&
                        em.try_emit("loop_rec_tagged_eq",
                                    {lbl(uint32_t(a.args[0].value)), d, lbl(uint32_t(b.args[0].value)),
                                     ux(Word(b.args[2].value)), tag, ux(Word(g.args[1].value)), e, v}))
                        return 4;
                }
            }
            return em.try_emit("loop_rec_tagged", {lbl(uint32_t(a.args[0].value)), d, lbl(uint32_t(b.args[0].value)),
                                                   ux(Word(b.args[2].value)), tag})
                       ? 2
                       : 0;
        }
        return 0;
    case op_is_nonempty_list:
        if (size_t n = emit_list_clause_head(code, i, em, literals)) return n;
        if (b.opcode == op_get_list && same_operand(a.args[1], b.args[0])) {
            Arg l = src(a.args[1]), h = src(b.args[1]), t = src(b.args[2]);
            if (!is_reg(l) || !is_reg(h) || !is_reg(t)) return 0;
            if (i + 3 < code.size() && code[i + 2].opcode == op_is_nonempty_list &&
                code[i + 3].opcode == op_get_list && same_operand(code[i + 2].args[1], b.args[2]) &&
                same_operand(code[i + 3].args[0], b.args[2])) {
                const GenericInstr& g2 = code[i + 3];
                Arg h2 = src(g2.args[1]), t2 = src(g2.args[2]);
                if (is_reg(h2) && is_reg(t2) &&
                    em.try_emit("is_nonempty_list_get_list2", {lbl(uint32_t(a.args[0].value)), l, h, t,
                                                               lbl(uint32_t(code[i + 2].args[0].value)), h2, t2}))
                    return 4;
            }
            if (i + 2 < code.size() && code[i + 2].opcode == op_is_eq_exact &&
                same_operand(code[i + 2].args[1], b.args[1])) {
                Arg imm = src(code[i + 2].args[2]);
                if (imm.kind == 'c' && is_immediate(Term{imm.w}) &&
                    em.try_emit("is_nonempty_list_get_list_eq",
                                {lbl(uint32_t(a.args[0].value)), l, h, t, lbl(uint32_t(code[i + 2].args[0].value)), imm}))
                    return 3;
            }
            return em.try_emit("is_nonempty_list_get_list", {lbl(uint32_t(a.args[0].value)), l, h, t}) ? 2 : 0;
        }
        return 0;
    default: return 0;
    }
}

}  // namespace beam::loader
