// Turns each generic instruction into one or more specific ones. The choice of variant by
// operand kind is data (vm/instructions.tab via the Emitter); this file says which specific
// instruction implements each generic one and how its operands map.
#include "loader/transform.hpp"

#include <fmt/format.h>

#include <optional>

#include <algorithm>

#include "bifs/bif.hpp"
#include "loader/emitter.hpp"
#include "loader/generic_ops.hpp"
#include "loader/superinstructions.hpp"
#include "loader/transform_bits.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

namespace beam::loader {

namespace {

class Transformer {
public:
    Transformer(const ParsedModule& pm, ModuleCode& mc, Namespace& ns)
        : pm_(pm), mc_(mc), ns_(ns), em_(mc, pm.label_count) {}

    Result<void> run();

private:
    const ParsedModule& pm_;
    ModuleCode& mc_;
    Namespace& ns_;
    Emitter em_;

    struct PendingFunction {
        size_t info_pos;   // code index of the func_info instruction
        size_t entry_pos;  // code index of the first instruction of the body
        Term name;
        uint32_t arity;
        bool declared_nif = false;  // its body starts with nif_start
    };
    std::vector<PendingFunction> functions_;
    struct PendingLine {
        size_t pos;
        uint32_t item;
    };
    std::vector<PendingLine> lines_;
    bool expect_entry_ = false;  // func_info seen; the next label is the entry point
    std::optional<size_t> on_load_function_;  // index in functions_
    // Operands that need final addresses: (code index, function or lambda index).
    std::vector<std::pair<size_t, size_t>> func_info_patches_;
    std::vector<std::pair<size_t, size_t>> fun_patches_;

    void instr(const GenericInstr& gi);
    // A line record (op_line) for the instruction emitted at code position `pos`.
    void record_line(const GenericInstr& gi, size_t pos) {
        size_t item = size_t(gi.args[0].value);
        lines_.push_back({pos, gi.args[0].value > 0 && item < pm_.line_items.size() ? uint32_t(item) : 0});
    }
    size_t fun_tail_call(const std::vector<GenericInstr>& code, size_t i);
    Arg src(const Operand& o) { return src_arg(o, mc_.literals); }
    const ImportEntry* import(const Operand& o) {
        if (o.value < 0 || size_t(o.value) >= pm_.imports.size()) {
            em_.fail(fmt::format("import index {} out of range", o.value));
            return nullptr;
        }
        return &pm_.imports[size_t(o.value)];
    }
    const BifSpec* bif_of(const Operand& o) {
        const ImportEntry* imp = import(o);
        return imp ? find_bif_in(*ns_.vm(), imp->module, imp->function, imp->arity) : nullptr;
    }
    void not_implemented(std::string what) {
        auto s = std::make_shared<std::string>(std::move(what));
        mc_.side_tables.push_back(s);
        em_.emit("not_implemented", {px(s->c_str())});
    }
    void call_ext(const Operand& arity, const Operand& imp_op, int mode, Word dealloc);
    void bif_call(const GenericInstr& gi, uint32_t fail, const Operand& bif, std::span<const Operand> args,
                  const Operand& dst);
    void select(const GenericInstr& gi, bool tuple_arity);
    bool jump_table(const char* op, const Arg& s, uint32_t fail, std::vector<std::pair<SWord, uint32_t>> by_value);
    void fmove(const Operand& s, const Operand& d);
    void map_put(const GenericInstr& gi, bool exact);
    bool new_map_lit(const GenericInstr& gi);
};

Result<void> Transformer::run() {
    // A module that may load a NIF library gets a slot at each function entry (vm/nif_call.hpp).
    for (const ImportEntry& imp : pm_.imports)
        if (imp.module == am::erlang && imp.function == atom("load_nif") && imp.arity == 2) mc_.nif_slots = true;
    mc_.code.reserve(pm_.code.size() * 3);
    const std::vector<GenericInstr>& code = pm_.code;
    const LineRecorder on_line = [this](const GenericInstr& line, size_t pos) { record_line(line, pos); };
    for (size_t i = 0; i < code.size(); ++i) {
        const GenericInstr& gi = code[i];
        if (gi.opcode == op_int_code_end) break;
        if (size_t used = fun_tail_call(code, i)) {
            i += used - 1;
        } else if (size_t fused = emit_superinstruction(code, i, em_, mc_.literals, on_line)) {
            i += fused - 1;
        } else {
            instr(gi);
        }
        if (em_.failed()) break;
    }
    // A final word so that a line record or label at the very end has an address.
    em_.emit("if_end", {});
    BEAM_TRY_VOID(em_.finish());

    const Word* base = mc_.code.data();
    for (const PendingFunction& f : functions_) {
        mc_.functions.push_back({base + f.info_pos, base + f.entry_pos, base + f.entry_pos, f.name, f.arity});
        mc_.functions.back().declared_nif = f.declared_nif;
    }
    if (on_load_function_) mc_.on_load = mc_.functions[*on_load_function_].entry;
    for (size_t i = 0; i < mc_.functions.size(); ++i)
        mc_.functions[i].end = i + 1 < mc_.functions.size() ? mc_.functions[i + 1].start : base + mc_.code.size();
    for (const PendingLine& l : lines_) {
        const LineItem& item = pm_.line_items[l.item];
        // As erts: a location its 32-bit encoding cannot hold (a line of 2^24 - 1 or more, a
        // file index of 255 or more) is no location at all.
        bool representable = item.line < (1u << 24) - 1 && item.file < 255;
        mc_.lines.push_back({base + l.pos, item.file, representable ? item.line : 0});
    }
    for (const ExportEntry& e : pm_.exports) {
        if (!em_.address_of_label(e.label)) return make_error(fmt::format("export to undefined label {}", e.label));
        mc_.exports.push_back({e.function, e.arity});
    }
    for (const PendingFunction& f : functions_) mc_.all_functions.push_back({f.name, f.arity});
    for (const LambdaEntry& l : pm_.lambdas) {
        auto fe = std::make_unique<FunEntry>();
        fe->module = pm_.name;
        fe->function = l.function;
        fe->arity = l.arity;
        fe->num_free = l.num_free;
        fe->index = l.index;
        fe->old_uniq = l.old_uniq;
        fe->new_index = l.index;
        std::copy(std::begin(mc_.md5), std::end(mc_.md5), fe->md5);
        fe->address = em_.address_of_label(l.label);
        fe->code = &mc_;
        if (!fe->address) return make_error(fmt::format("fun entry to undefined label {}", l.label));
        mc_.funs.push_back(std::move(fe));
    }
    for (auto [at, i] : func_info_patches_) mc_.code[at] = reinterpret_cast<Word>(&mc_.functions[i]);
    for (auto [at, i] : fun_patches_) mc_.code[at] = reinterpret_cast<Word>(mc_.funs[i].get());
    return {};
}

// A fun call in tail position (call_fun, `deallocate D`, `return`) becomes one instruction
// that drops the frame before the call, as OTP's loader does (ops.tab): the caller's frame
// must not stay on the stack (a loop through funs would grow it without bound, and stack
// traces would show a frame that erl does not). Returns the number of generic instructions
// consumed, 0 when `code[i]` does not start such a sequence.
size_t Transformer::fun_tail_call(const std::vector<GenericInstr>& code, size_t i) {
    const GenericInstr& call = code[i];
    if (call.opcode != op_call_fun && call.opcode != op_call_fun2) return 0;
    if (i + 2 >= code.size() || code[i + 1].opcode != op_deallocate || code[i + 2].opcode != op_return) return 0;
    const Word dealloc = Word(code[i + 1].args[0].value);
    const auto& a = call.args;
    if (call.opcode == op_call_fun) em_.emit("call_fun_last", {ux(Word(a[0].value)), ux(dealloc)});
    else em_.emit("call_fun2_last", {ux(Word(a[1].value)), src(a[2]), ux(dealloc)});
    return 3;
}

bool is_immediate_constant(const Arg& a) { return a.kind == 'c' && is_immediate(Term{a.w}); }
bool is_small_constant(const Arg& a) { return a.kind == 'c' && is_small(Term{a.w}); }

void Transformer::instr(const GenericInstr& gi) {
    const auto& a = gi.args;
    auto U = [&](size_t i) { return ux(Word(a[i].value)); };
    auto L = [&](size_t i) { return lbl(uint32_t(a[i].value)); };
    auto S = [&](size_t i) { return src(a[i]); };
    switch (gi.opcode) {
    case op_label:
        em_.bind_label(uint32_t(a[0].value));
        if (expect_entry_) {
            functions_.back().entry_pos = em_.pos();
            expect_entry_ = false;
            const PendingFunction& f = functions_.back();
            if (const BifSpec* b = find_bif_in(*ns_.vm(), pm_.name, f.name, f.arity)) em_.emit("bif_body", {px(b)});
            else if (mc_.nif_slots) em_.emit("nif_slot", {{'p', 0}});
        }
        break;
    case op_func_info: {
        functions_.push_back({em_.pos(), em_.pos(), a[1].term, uint32_t(a[2].value)});
        em_.emit("func_info", {{'p', 0}});
        func_info_patches_.push_back({em_.pos() - 1, functions_.size() - 1});
        expect_entry_ = true;
        break;
    }
    case op_line:
    case op_executable_line: record_line(gi, em_.pos()); break;
    case op_call: em_.emit("call", {U(0), L(1)}); break;
    case op_call_only: em_.emit("call_only", {U(0), L(1)}); break;
    case op_call_last: em_.emit("call_last", {U(0), L(1), U(2)}); break;
    case op_call_ext: call_ext(a[0], a[1], 0, 0); break;
    case op_call_ext_only: call_ext(a[0], a[1], 1, 0); break;
    case op_call_ext_last: call_ext(a[0], a[1], 2, Word(a[2].value)); break;
    case op_bif0: bif_call(gi, 0, a[0], {}, a[1]); break;
    case op_bif1: bif_call(gi, uint32_t(a[0].value), a[1], {&a[2], 1}, a[3]); break;
    case op_bif2: bif_call(gi, uint32_t(a[0].value), a[1], {&a[2], 2}, a[4]); break;
    case op_gc_bif1: bif_call(gi, uint32_t(a[0].value), a[2], {&a[3], 1}, a[4]); break;
    case op_gc_bif2: bif_call(gi, uint32_t(a[0].value), a[2], {&a[3], 2}, a[5]); break;
    case op_gc_bif3: bif_call(gi, uint32_t(a[0].value), a[2], {&a[3], 3}, a[6]); break;
    case op_allocate:
    case op_allocate_zero: em_.emit("allocate", {U(0), U(1)}); break;
    case op_allocate_heap:
    case op_allocate_heap_zero: em_.emit("allocate_heap", {U(0), U(1), U(2)}); break;
    case op_test_heap: em_.emit("test_heap", {U(0), U(1)}); break;
    case op_init: em_.emit("init_yreg", {S(0)}); break;
    case op_init_yregs:
        for (const Operand& y : a[0].list) em_.emit("init_yreg", {src(y)});
        break;
    case op_deallocate: em_.emit("deallocate", {U(0)}); break;
    case op_trim: em_.emit("trim", {U(0), U(1)}); break;
    case op_return: em_.emit("return", {}); break;
    case op_send: em_.emit("send", {}); break;
    case op_remove_message: em_.emit("remove_message", {}); break;
    case op_timeout: em_.emit("timeout", {}); break;
    case op_loop_rec: em_.emit("loop_rec", {L(0), S(1)}); break;
    case op_loop_rec_end: em_.emit("loop_rec_end", {L(0)}); break;
    case op_wait: em_.emit("wait", {L(0)}); break;
    case op_wait_timeout: em_.emit("wait_timeout", {L(0), S(1)}); break;
    case op_recv_marker_reserve: em_.emit("recv_marker_reserve", {S(0)}); break;
    case op_recv_marker_bind: em_.emit("recv_marker_bind", {S(0), S(1)}); break;
    case op_recv_marker_clear: em_.emit("recv_marker_clear", {S(0)}); break;
    case op_recv_marker_use: em_.emit("recv_marker_use", {S(0)}); break;
    case op_is_lt:
        if (is_small_constant(S(2)) && em_.try_emit("is_lt_small", {L(0), S(1), S(2)})) break;
        if (!em_.try_emit("is_lt", {L(0), S(1), S(2)})) em_.emit("is_lt_any", {L(0), S(1), S(2)});
        break;
    case op_is_ge:
        if (is_small_constant(S(2)) && em_.try_emit("is_ge_small", {L(0), S(1), S(2)})) break;
        if (!em_.try_emit("is_ge", {L(0), S(1), S(2)})) em_.emit("is_ge_any", {L(0), S(1), S(2)});
        break;
    case op_is_eq:
        if (!em_.try_emit("is_eq", {L(0), S(1), S(2)})) em_.emit("is_eq_any", {L(0), S(1), S(2)});
        break;
    case op_is_ne:
        if (!em_.try_emit("is_ne", {L(0), S(1), S(2)})) em_.emit("is_ne_any", {L(0), S(1), S(2)});
        break;
    case op_is_eq_exact:
        if (is_immediate_constant(S(2)) && em_.try_emit("is_eq_exact_imm", {L(0), S(1), S(2)})) break;
        if (!em_.try_emit("is_eq_exact", {L(0), S(1), S(2)})) em_.emit("is_eq_exact_any", {L(0), S(1), S(2)});
        break;
    case op_is_ne_exact:
        if (is_immediate_constant(S(2)) && em_.try_emit("is_ne_exact_imm", {L(0), S(1), S(2)})) break;
        if (!em_.try_emit("is_ne_exact", {L(0), S(1), S(2)})) em_.emit("is_ne_exact_any", {L(0), S(1), S(2)});
        break;
    case op_is_integer: em_.emit("is_integer", {L(0), S(1)}); break;
    case op_is_float: em_.emit("is_float", {L(0), S(1)}); break;
    case op_is_number: em_.emit("is_number", {L(0), S(1)}); break;
    case op_is_atom: em_.emit("is_atom", {L(0), S(1)}); break;
    case op_is_pid: em_.emit("is_pid", {L(0), S(1)}); break;
    case op_is_reference: em_.emit("is_reference", {L(0), S(1)}); break;
    case op_is_port: em_.emit("is_port", {L(0), S(1)}); break;
    case op_is_nil: em_.emit("is_nil", {L(0), S(1)}); break;
    case op_is_binary: em_.emit("is_binary", {L(0), S(1)}); break;
    case op_is_bitstr: em_.emit("is_bitstr", {L(0), S(1)}); break;
    case op_is_list: em_.emit("is_list", {L(0), S(1)}); break;
    case op_is_nonempty_list: em_.emit("is_nonempty_list", {L(0), S(1)}); break;
    case op_is_tuple: em_.emit("is_tuple", {L(0), S(1)}); break;
    case op_is_map: em_.emit("is_map", {L(0), S(1)}); break;
    case op_is_boolean: em_.emit("is_boolean", {L(0), S(1)}); break;
    case op_is_function: em_.emit("is_function", {L(0), S(1)}); break;
    case op_is_function2: em_.emit("is_function2", {L(0), S(1), S(2)}); break;
    case op_test_arity: em_.emit("test_arity", {L(0), S(1), U(2)}); break;
    case op_is_tagged_tuple: em_.emit("is_tagged_tuple", {L(0), S(1), U(2), S(3)}); break;
    case op_select_val: select(gi, false); break;
    case op_select_tuple_arity: select(gi, true); break;
    case op_jump: em_.emit("jump", {L(0)}); break;
    case op_catch:
    case op_try: em_.emit("catch", {S(0), L(1)}); break;
    case op_catch_end: em_.emit("catch_end", {S(0)}); break;
    case op_try_end: em_.emit("try_end", {S(0)}); break;
    case op_try_case: em_.emit("try_case", {S(0)}); break;
    case op_try_case_end: em_.emit("try_case_end", {S(0)}); break;
    case op_raise: em_.emit("raise", {S(0), S(1)}); break;
    case op_build_stacktrace: em_.emit("build_stacktrace", {}); break;
    case op_raw_raise: em_.emit("raw_raise", {}); break;
    case op_move:
        if (!em_.try_emit("move", {S(0), S(1)})) em_.emit("move_any", {S(0), S(1)});
        break;
    case op_swap: em_.emit("swap", {S(0), S(1)}); break;
    case op_get_list: em_.emit("get_list", {S(0), S(1), S(2)}); break;
    case op_get_hd: em_.emit("get_hd", {S(0), S(1)}); break;
    case op_get_tl: em_.emit("get_tl", {S(0), S(1)}); break;
    case op_get_tuple_element: em_.emit("get_tuple_element", {S(0), U(1), S(2)}); break;
    case op_set_tuple_element: em_.emit("set_tuple_element", {S(0), S(1), U(2)}); break;
    case op_put_list: em_.emit("put_list", {S(0), S(1), S(2)}); break;
    case op_put_tuple2: {
        em_.emit("put_tuple2", {S(0), ux(a[1].list.size())});
        for (const Operand& e : a[1].list) em_.raw_any(src(e));
        break;
    }
    case op_badmatch: em_.emit("badmatch", {S(0)}); break;
    case op_if_end: em_.emit("if_end", {}); break;
    case op_case_end: em_.emit("case_end", {S(0)}); break;
    case op_badrecord: em_.emit("badrecord", {S(0)}); break;
    case op_call_fun: em_.emit("call_fun", {U(0)}); break;
    case op_call_fun2: em_.emit("call_fun2", {U(1), S(2)}); break;
    case op_apply: em_.emit("apply", {U(0)}); break;
    case op_apply_last: em_.emit("apply_last", {U(0), U(1)}); break;
    case op_make_fun2: {  // old form: free variables in x0..x(n-1), result in x0
        size_t idx = size_t(a[0].value);
        if (idx >= pm_.lambdas.size()) return em_.fail(fmt::format("lambda index {} out of range", idx));
        uint32_t nfree = pm_.lambdas[idx].num_free;
        fun_patches_.push_back({em_.pos() + 1, idx});
        em_.emit("make_fun", {{'p', 0}, {'x', 0}, ux(nfree)});
        for (uint32_t i = 0; i < nfree; ++i) em_.raw_any({'x', i});
        break;
    }
    case op_make_fun3: {
        size_t idx = size_t(a[0].value);
        if (idx >= pm_.lambdas.size()) return em_.fail(fmt::format("lambda index {} out of range", idx));
        fun_patches_.push_back({em_.pos() + 1, idx});
        em_.emit("make_fun", {{'p', 0}, S(1), ux(a[2].list.size())});
        for (const Operand& e : a[2].list) em_.raw_any(src(e));
        break;
    }
    case op_fmove: fmove(a[0], a[1]); break;
    case op_fconv: em_.emit("fconv", {lbl(0), S(0), U(1)}); break;
    case op_fadd: em_.emit("fadd", {L(0), U(1), U(2), U(3)}); break;
    case op_fsub: em_.emit("fsub", {L(0), U(1), U(2), U(3)}); break;
    case op_fmul: em_.emit("fmul", {L(0), U(1), U(2), U(3)}); break;
    case op_fdiv: em_.emit("fdiv", {L(0), U(1), U(2), U(3)}); break;
    case op_fnegate: em_.emit("fnegate", {L(0), U(1), U(2)}); break;
    case op_fclearerror:
    case op_fcheckerror: break;  // float errors are checked by each operation
    case op_put_map_assoc: map_put(gi, false); break;
    case op_put_map_exact: map_put(gi, true); break;
    case op_has_map_fields: {
        em_.emit("has_map_fields", {L(0), S(1), ux(a[2].list.size())});
        for (const Operand& k : a[2].list) em_.raw_any(src(k));
        break;
    }
    case op_get_map_elements: {
        const auto& kv = a[2].list;
        em_.emit("get_map_elements", {L(0), S(1), ux(kv.size() / 2)});
        for (const Operand& e : kv) em_.raw_any(src(e));
        break;
    }
    case op_on_load:  // follows the entry label of the module's on_load function
        if (!functions_.empty()) on_load_function_ = functions_.size() - 1;
        break;
    case op_nif_start:  // OTP 25's compiler starts each function a -nifs attribute names with it
        if (!functions_.empty()) functions_.back().declared_nif = true;
        mc_.declares_nifs = true;
        break;
    default:
        if (!transform_bits(gi, pm_, mc_, em_)) {
            not_implemented(fmt::format("instruction {}/{}", generic_op_name(gi.opcode), gi.args.size()));
        }
        break;
    }
}

void Transformer::call_ext(const Operand& arity, const Operand& imp_op, int mode, Word dealloc) {
    const ImportEntry* imp = import(imp_op);
    if (!imp) return;
    if (imp->module == am::erlang && imp->function == am::apply && (imp->arity == 2 || imp->arity == 3)) {
        em_.emit(imp->arity == 3 ? "apply_mfa_list" : "apply_fun_list", {ux(Word(mode)), ux(dealloc)});
        return;
    }
    if (imp->module == am::erlang && imp->arity == 0 &&
        (atom_name(imp->function) == "yield" || atom_name(imp->function) == "garbage_collect")) {
        em_.emit(atom_name(imp->function) == "yield" ? "yield_now" : "gc_now", {ux(Word(mode)), ux(dealloc)});
        return;
    }
    if (imp->module == am::erlang && atom_name(imp->function) == "hibernate" && imp->arity == 3) {
        em_.emit("hibernate", {});  // never returns: the stack goes, whatever the call mode
        return;
    }
    if (const BifSpec* b = find_bif_in(*ns_.vm(), imp->module, imp->function, imp->arity)) {
        if (mode == 0) em_.emit("call_bif", {px(b)});
        else if (mode == 1) em_.emit("call_bif_only", {px(b)});
        else em_.emit("call_bif_last", {px(b), ux(dealloc)});
        return;
    }
    Export* e = ns_.export_entry(imp->module, imp->function, imp->arity);
    Arg n = ux(Word(arity.value));
    if (mode == 0) em_.emit("call_ext", {n, px(e)});
    else if (mode == 1) em_.emit("call_ext_only", {n, px(e)});
    else em_.emit("call_ext_last", {n, px(e), ux(dealloc)});
}

void Transformer::bif_call(const GenericInstr& gi, uint32_t fail, const Operand& bif, std::span<const Operand> args,
                           const Operand& dst) {
    const ImportEntry* imp = import(bif);
    if (!imp) return;
    const BifSpec* b = find_bif_in(*ns_.vm(), imp->module, imp->function, imp->arity);
    if (!b) {
        not_implemented(fmt::format("BIF {}:{}/{}", atom_name(imp->module), atom_name(imp->function), imp->arity));
        return;
    }
    Arg d = src(dst);
    if (args.size() == 2 && imp->module == am::erlang) {
        std::string_view name = atom_name(imp->function);
        Arg x = src(args[0]), y = src(args[1]);
        bool small_lit = args[1].kind == OpKind::Integer && fits_small(args[1].value);
        Word frame_plus = small_lit ? 0 : 1;
        Word frame_minus = small_lit && args[1].value >= 0 ? 0 : 1;
        if (name == "+" && em_.try_emit("plus", {lbl(fail), x, y, d, ux(frame_plus)})) return;
        if (name == "-" && em_.try_emit("minus", {lbl(fail), x, y, d, ux(frame_minus)})) return;
        // A literal power-of-two divisor (x div 8, x rem 2): a shift instead of a division.
        if ((name == "div" || name == "rem") && args[1].kind == OpKind::Integer && args[1].value > 1 &&
            args[1].value <= (int64_t(1) << 32) && (args[1].value & (args[1].value - 1)) == 0) {
            Word k = Word(__builtin_ctzll(uint64_t(args[1].value)));
            if (em_.try_emit(name == "div" ? "int_div_pow2" : "int_rem_pow2", {lbl(fail), px(b), x, ux(k), d})) return;
        }
        static const std::pair<std::string_view, std::string_view> fast[] = {
            {"*", "times"}, {"div", "int_div"}, {"rem", "int_rem"},
            {"band", "int_band"}, {"bor", "int_bor"}, {"bsr", "int_bsr"}};
        for (auto [op, instr] : fast)
            if (name == op && em_.try_emit(instr, {lbl(fail), px(b), x, y, d})) return;
    }
    if (imp->module == am::erlang && !args.empty()) {
        static const std::pair<std::string_view, std::string_view> inline_bifs[] = {
            {"element", "bif_element"}, {"map_get", "bif_map_get"},
            {"is_map_key", "bif_is_map_key"}, {"tuple_size", "bif_tuple_size"}};
        std::string_view name = atom_name(imp->function);
        for (auto [fn, instr] : inline_bifs) {
            if (name != fn || b->arity != args.size()) continue;
            if (args.size() == 1 && em_.try_emit(instr, {lbl(fail), px(b), src(args[0]), d})) return;
            if (args.size() == 2 && em_.try_emit(instr, {lbl(fail), px(b), src(args[0]), src(args[1]), d})) return;
        }
    }
    switch (args.size()) {
    case 0: em_.emit("bif0", {px(b), d}); break;
    case 1: em_.emit("bif1", {lbl(fail), px(b), src(args[0]), d}); break;
    case 2: em_.emit("bif2", {lbl(fail), px(b), src(args[0]), src(args[1]), d}); break;
    case 3: em_.emit("bif3", {lbl(fail), px(b), src(args[0]), src(args[1]), src(args[2]), d}); break;
    }
}

// From this many values a select_val on immediates other than dense small integers probes a
// hash table (select_val_hash) instead of searching the sorted values.
constexpr size_t SELECT_HASH_MIN = 5;

void Transformer::select(const GenericInstr& gi, bool tuple_arity) {
    const auto& list = gi.args[2].list;
    std::vector<std::pair<Word, uint32_t>> pairs;
    for (size_t i = 0; i + 1 < list.size(); i += 2) {
        Term v = tuple_arity ? make_small(list[i].value) : src(list[i]).kind == 'c' ? Term{src(list[i]).w} : NIL;
        if (!is_immediate(v)) {
            // Bignum or float case values: compare one by one through is_eq_exact.
            em_.emit("is_ne_exact_any", {lbl(uint32_t(list[i + 1].value)), src(gi.args[0]), cterm(v)});
            continue;
        }
        pairs.push_back({v.raw, uint32_t(list[i + 1].value)});
    }
    std::sort(pairs.begin(), pairs.end());
    const Arg s = src(gi.args[0]);
    const uint32_t fail = uint32_t(gi.args[1].value);
    // Arities, and small integers when there are 3 or more: a jump table if they are close
    // together (every select on arity in the compiler; its binary search was 1.6% of the
    // compiler's instructions).
    bool smalls = std::all_of(pairs.begin(), pairs.end(), [](auto& pr) { return is_small(Term{pr.first}); });
    if (!pairs.empty() && smalls && (tuple_arity || pairs.size() >= 3)) {
        std::vector<std::pair<SWord, uint32_t>> by_value;
        for (auto [v, l] : pairs) by_value.push_back({small_value(Term{v}), l});
        if (jump_table(tuple_arity ? "select_tuple_arity_table" : "select_val_table", s, fail, std::move(by_value)))
            return;
    }
    if (!tuple_arity && !pairs.empty()) {
        // A few values: a linear scan; more: a hash table.
        if (pairs.size() < SELECT_HASH_MIN) {
            em_.emit("select_val_linear", {s, lbl(fail), ux(pairs.size())});
            for (auto [v, l] : pairs) {
                em_.raw(v);
                em_.raw_label(l);
            }
            return;
        }
        // At most half the slots used, so a probe ends within a few slots.
        unsigned bits = 1;
        while ((size_t(1) << bits) < 2 * pairs.size()) ++bits;
        std::vector<std::pair<Word, uint32_t>> slots(size_t(1) << bits, {0, fail});
        for (auto [v, l] : pairs) {
            size_t i = size_t((v * 0x9E3779B97F4A7C15ull) >> (64 - bits));
            while (slots[i].first != 0) i = (i + 1) & (slots.size() - 1);
            slots[i] = {v, l};
        }
        em_.emit("select_val_hash", {s, lbl(fail), ux(bits)});
        for (auto [v, l] : slots) {
            em_.raw(v);
            em_.raw_label(l);
        }
        return;
    }
    em_.emit(tuple_arity ? "select_tuple_arity" : "select_val", {s, lbl(fail), ux(pairs.size())});
    for (auto [v, l] : pairs) {
        em_.raw(v);
        em_.raw_label(l);
    }
}

// [op Src Fail Min Size addr0 ... addr(Size-1)] (select_val_table, select_tuple_arity_table):
// the address for Min + i at i, Fail in the holes. False, and nothing emitted, when the values
// are too far apart for a table of fewer than 2n + 2 slots.
bool Transformer::jump_table(const char* op, const Arg& s, uint32_t fail,
                             std::vector<std::pair<SWord, uint32_t>> by_value) {
    // By value (sorted by raw word, negative numbers came last).
    std::sort(by_value.begin(), by_value.end());
    SWord lo = by_value.front().first, hi = by_value.back().first;
    if (hi - lo >= SWord(2 * by_value.size() + 2)) return false;
    em_.emit(op, {s, lbl(fail), ux(Word(lo)), ux(Word(hi - lo + 1))});
    size_t k = 0;
    for (SWord v = lo; v <= hi; ++v) {
        bool hit = k < by_value.size() && by_value[k].first == v;
        em_.raw_label(hit ? by_value[k++].second : fail);
    }
    return true;
}

void Transformer::fmove(const Operand& s, const Operand& d) {
    bool sf = s.kind == OpKind::FloatReg, df = d.kind == OpKind::FloatReg;
    if (sf && df) em_.emit("fmove_ff", {ux(Word(s.value)), ux(Word(d.value))});
    else if (sf) em_.emit("fstore", {ux(Word(s.value)), src(d)});
    else if (df) em_.emit("fload", {src(s), ux(Word(d.value))});
    else em_.fail("fmove between two non-float registers");
}

// The term of a constant operand, or NON_VALUE for a register.
Term constant_term(const Operand& o) {
    switch (o.kind) {
    case OpKind::Atom:
    case OpKind::Literal: return o.term;
    case OpKind::Nil: return NIL;
    case OpKind::Integer:
    case OpKind::Char: return fits_small(SWord(o.value)) ? make_small(SWord(o.value)) : NON_VALUE;
    default: return NON_VALUE;
    }
}

// #{K1 => V1, ...} built from the empty literal with constant, distinct keys: one shared
// literal keys tuple and the values in key order (OTP's new_small_map_lit). False when the
// instruction is not of that form.
bool Transformer::new_map_lit(const GenericInstr& gi) {
    const auto& a = gi.args;
    const auto& kv = a[4].list;
    size_t n = kv.size() / 2;
    if (a[1].kind != OpKind::Literal || !is_flat_map(a[1].term) || map_size(a[1].term) != 0) return false;
    if (n == 0 || n > MAP_SMALL_LIMIT) return false;
    std::vector<std::pair<Term, size_t>> keys;  // key, index of its value operand
    for (size_t i = 0; i < n; ++i) {
        Term k = constant_term(kv[2 * i]);
        if (is_non_value(k)) return false;
        keys.push_back({k, 2 * i + 1});
    }
    std::sort(keys.begin(), keys.end(), [](auto& x, auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
    for (size_t i = 1; i < n; ++i)
        if (eq_exact(keys[i - 1].first, keys[i].first)) return false;  // a repeated key: the general path
    Term* hp = mc_.literals.alloc(n + 1);
    hp[0] = make_header(Sub::Tuple, n);
    for (size_t i = 0; i < n; ++i) hp[1 + i] = keys[i].first;
    Operand tuple{OpKind::Literal};
    tuple.term = make_boxed(hp);
    em_.emit("new_map_lit", {src(a[2]), ux(Word(a[3].value)), src(tuple), ux(n)});
    for (auto& [k, vi] : keys) em_.raw_any(src(kv[vi]));
    return true;
}

void Transformer::map_put(const GenericInstr& gi, bool exact) {
    const auto& a = gi.args;
    if (!exact && new_map_lit(gi)) return;
    const auto& kv = a[4].list;
    em_.emit("put_map", {lbl(uint32_t(a[0].value)), src(a[1]), src(a[2]), ux(Word(a[3].value)), ux(exact ? 1 : 0),
                         ux(kv.size() / 2)});
    for (const Operand& e : kv) em_.raw_any(src(e));
}

}  // namespace

Result<void> transform_module(const ParsedModule& pm, ModuleCode& mc, Namespace& ns) {
    mc.name = pm.name;
    Transformer t(pm, mc, ns);
    BEAM_TRY_VOID(t.run());
    return {};
}

}  // namespace beam::loader
