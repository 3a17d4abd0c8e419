#include "loader/emitter.hpp"

#include <fmt/format.h>

#include <span>

#include "vm/bignum.hpp"

namespace beam::loader {

Emitter::Emitter(ModuleCode& mc, uint32_t label_count) : mc_(mc), label_pos_(label_count + 1, -1) {}

const std::unordered_map<std::string_view, std::vector<Emitter::Variant>>& Emitter::variants() {
    static const auto table = [] {
        std::unordered_map<std::string_view, std::vector<Variant>> t;
        for (size_t i = 0; i < size_t(Op::COUNT); ++i) {
            const InstrMeta& m = instr_meta(Op(i));
            t[m.base].push_back({m.kinds, Op(i)});
        }
        return t;
    }();
    return table;
}

static Word encode_any(Arg a) {
    switch (a.kind) {
    case 'x': return encode_x(a.w);
    case 'y': return encode_y(a.w);
    default: return a.w;  // a term
    }
}

bool Emitter::try_emit(std::string_view base, const Arg* args_begin, size_t n) {
    const std::span<const Arg> args(args_begin, n);
    auto it = variants().find(base);
    if (it == variants().end()) return false;
    // Prefer the variant with the most exact operand kinds; `a` accepts any register/constant.
    const Variant* best = nullptr;
    int best_score = -1;
    for (const Variant& v : it->second) {
        if (v.kinds.size() != args.size()) continue;
        int score = 0;
        size_t i = 0;
        bool ok = true;
        for (const Arg& a : args) {
            char k = v.kinds[i++];
            if (k == a.kind) score += 2;
            else if (k == 'a' && (a.kind == 'x' || a.kind == 'y' || a.kind == 'c')) score += 1;
            else {
                ok = false;
                break;
            }
        }
        if (ok && score > best_score) {
            best = &v;
            best_score = score;
        }
    }
    if (!best) return false;
    mc_.code.push_back(handler_word(best->op));
    size_t i = 0;
    for (const Arg& a : args) {
        char k = best->kinds[i++];
        if (k == 'a') raw(encode_any(a));
        else if (k == 'f') raw_label(uint32_t(a.w));
        else raw(a.w);
    }
    return true;
}

void Emitter::emit(std::string_view base, std::initializer_list<Arg> args) {
    if (try_emit(base, args)) return;
    std::string kinds;
    for (const Arg& a : args) kinds += a.kind;
    fail(fmt::format("no variant of instruction {} for operand kinds '{}'", base, kinds));
}

void Emitter::raw_any(Arg a) { raw(encode_any(a)); }

void Emitter::raw_label(uint32_t label) {
    if (label != 0) code_patches_.push_back({mc_.code.size(), label});
    mc_.code.push_back(0);
}

void Emitter::side_label(const Word** slot, uint32_t label) {
    *slot = nullptr;
    if (label != 0) side_patches_.push_back({slot, label});
}

void Emitter::bind_label(uint32_t label) {
    if (label >= label_pos_.size()) return fail(fmt::format("label {} out of range", label));
    if (label_pos_[label] >= 0) return fail(fmt::format("label {} defined twice", label));
    label_pos_[label] = int64_t(mc_.code.size());
}

const Word* Emitter::address_of_label(uint32_t label) const {
    if (label == 0 || label >= label_pos_.size() || label_pos_[label] < 0) return nullptr;
    return mc_.code.data() + label_pos_[label];
}

Result<void> Emitter::finish() {
    if (failed()) return make_error(error_);
    for (auto [at, label] : code_patches_) {
        const Word* addr = address_of_label(label);
        if (!addr) return make_error(fmt::format("reference to undefined label {}", label));
        mc_.code[at] = reinterpret_cast<Word>(addr);
    }
    for (auto [slot, label] : side_patches_) {
        const Word* addr = address_of_label(label);
        if (!addr) return make_error(fmt::format("reference to undefined label {}", label));
        *slot = addr;
    }
    return {};
}

Arg src_arg(const Operand& o, LiteralArea& area) {
    switch (o.kind) {
    case OpKind::X: return {'x', Word(o.value)};
    case OpKind::Y: return {'y', Word(o.value)};
    case OpKind::Atom:
    case OpKind::Nil:
    case OpKind::Literal: return cterm(o.term);
    case OpKind::Integer:
    case OpKind::Char:
    case OpKind::Unsigned: return cterm(make_integer(area, o.value));
    case OpKind::Label: return lbl(uint32_t(o.value));
    case OpKind::FloatReg: return {'r', Word(o.value)};
    default: return {'?', 0};
    }
}

}  // namespace beam::loader
