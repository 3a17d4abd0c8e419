#include "loader/emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "vm/bignum.hpp"

namespace beam::loader {

Emitter::Emitter(ModuleCode& mc, uint32_t label_count) : mc_(mc), label_pos_(label_count + 1, -1) {}

namespace {

// Operand kinds a byte each in one word, for operand lists of up to 8: a variant whose kinds
// equal the operands' is found by one comparison per variant.
constexpr size_t KIND_BYTES_MAX = 8;
// A variant's `n` operand (a small count, tools/gen_instructions.py) takes a `u` argument.
inline char arg_kind(char k) { return k == 'n' ? 'u' : k; }
inline uint64_t kind_byte(uint64_t bytes, size_t i, char k) {
    return bytes | uint64_t(uint8_t(arg_kind(k))) << (8 * i);
}
inline bool packable(char k) { return k == 'x' || k == 'y' || k == 'n'; }

struct Variant {
    std::string_view kinds;
    Op op;
    uint64_t kind_bytes;  // the kinds, a byte each; 0 when there are more than KIND_BYTES_MAX
    bool packed;          // InstrMeta::packed: x, y and n operands in 16-bit fields
};

// The variants of every instruction, found by base name in an open-addressed table built once:
// each emitted instruction looks its name up, and the unordered_map this replaced (a byte
// hash, a division, a node per name) cost 8% of loading a module (docs/benchmarks.md,
// "Issue 11: session 9 changes").
class VariantIndex {
public:
    VariantIndex() {
        for (size_t i = 0; i < size_t(Op::COUNT); ++i) {
            const InstrMeta& m = instr_meta(Op(i));
            std::string_view kinds = m.kinds;
            uint64_t bytes = 0;
            if (kinds.size() <= KIND_BYTES_MAX)
                for (size_t k = 0; k < kinds.size(); ++k) bytes = kind_byte(bytes, k, kinds[k]);
            variants_.push_back({kinds, Op(i), bytes, m.packed});
        }
        // Group each base's variants together, keeping their declaration order.
        std::stable_sort(variants_.begin(), variants_.end(), [](const Variant& a, const Variant& b) {
            return std::string_view(instr_meta(a.op).base) < std::string_view(instr_meta(b.op).base);
        });
        size_t bases = 0;
        for (size_t i = 0; i < variants_.size(); ++i)
            if (i == 0 || base(i) != base(i - 1)) ++bases;
        size_t n = 16;
        while (n < 2 * bases) n *= 2;
        slots_.resize(n);
        mask_ = n - 1;
        for (size_t i = 0; i < variants_.size();) {
            size_t j = i;
            while (j < variants_.size() && base(j) == base(i)) ++j;
            size_t at = hash(base(i)) & mask_;
            while (slots_[at].count != 0) at = (at + 1) & mask_;
            slots_[at] = {base(i), uint32_t(i), uint32_t(j - i)};
            i = j;
        }
    }

    std::span<const Variant> find(std::string_view name) const {
        for (size_t at = hash(name) & mask_; slots_[at].count != 0; at = (at + 1) & mask_)
            if (slots_[at].base == name) return {variants_.data() + slots_[at].first, slots_[at].count};
        return {};
    }

private:
    struct Slot {
        std::string_view base;
        uint32_t first = 0, count = 0;  // count 0: an empty slot
    };
    std::string_view base(size_t i) const { return instr_meta(variants_[i].op).base; }
    // The length and the first and last eight bytes (the names are short and mostly differ
    // at their ends): a few instructions where a loop over the bytes took sixty.
    static size_t hash(std::string_view s) {
        uint64_t head = 0, tail = 0;
        std::memcpy(&head, s.data(), std::min<size_t>(s.size(), 8));
        if (s.size() > 8) std::memcpy(&tail, s.data() + s.size() - 8, 8);
        uint64_t h = (head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ s.size();
        return size_t(h ^ (h >> 29));
    }
    std::vector<Variant> variants_;
    std::vector<Slot> slots_;
    size_t mask_ = 0;
};

const VariantIndex& variant_index() {
    static const VariantIndex index;
    return index;
}

bool fits_packed(const Variant& v, std::span<const Arg> args) {
    for (size_t i = 0; i < args.size(); ++i)
        if (packable(v.kinds[i]) && args[i].w > PACKED_FIELD_MAX) return false;
    return true;
}

// The variant with a word per operand that every `pack` variant has (`<name>_wide`).
const Variant* wide_twin(std::span<const Variant> variants, const Variant& packed) {
    for (const Variant& v : variants)
        if (v.kinds == packed.kinds && !v.packed) return &v;
    return nullptr;
}

// The packed operands' fields, four to a word in operand order (vm/interp.hpp packed_field).
void emit_packed(Emitter& em, std::string_view kinds, std::span<const Arg> args) {
    Word word = 0;
    unsigned k = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!packable(kinds[i])) continue;
        word |= packed_field_value(args[i].w, k % PACKED_FIELDS_PER_WORD);
        if (++k % PACKED_FIELDS_PER_WORD == 0) em.raw(std::exchange(word, 0));
    }
    if (k % PACKED_FIELDS_PER_WORD != 0) em.raw(word);
}

}  // namespace

static Word encode_any(Arg a) {
    switch (a.kind) {
    case 'x': return encode_x(a.w);
    case 'y': return encode_y(a.w);
    default: return a.w;  // a term
    }
}

bool Emitter::try_emit(std::string_view base, const Arg* args_begin, size_t n) {
    const std::span<const Arg> args(args_begin, n);
    const std::span<const Variant> variants = variant_index().find(base);
    const Variant* best = nullptr;
    // A variant with exactly the operands' kinds is the one the scoring below would pick.
    if (n <= KIND_BYTES_MAX) {
        uint64_t bytes = 0;
        for (size_t i = 0; i < n; ++i) bytes = kind_byte(bytes, i, args[i].kind);
        for (const Variant& v : variants)
            if (v.kind_bytes == bytes && v.kinds.size() == n) {
                best = &v;
                break;
            }
    }
    // Else the variant with the most exact operand kinds; `a` accepts any register/constant.
    int best_score = -1;
    for (const Variant& v : best ? std::span<const Variant>() : variants) {
        if (v.kinds.size() != args.size()) continue;
        int score = 0;
        size_t i = 0;
        bool ok = true;
        for (const Arg& a : args) {
            char k = v.kinds[i++];
            if (arg_kind(k) == a.kind) score += 2;
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
    if (best->packed && !fits_packed(*best, args) && !(best = wide_twin(variants, *best))) return false;
    mc_.code.push_back(handler_word(best->op));
    if (best->packed) emit_packed(*this, best->kinds, args);
    size_t i = 0;
    for (const Arg& a : args) {
        char k = best->kinds[i++];
        if (best->packed && packable(k)) continue;
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
