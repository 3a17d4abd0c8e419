// Writes threaded code for one module: picks the specific instruction variant that matches
// the operands' kinds, encodes operands, and patches label references once the code is final.
#pragma once

#include <string_view>
#include <vector>

#include "loader/beam_module.hpp"
#include "vm/interp.hpp"
#include "vm/module.hpp"
#include "vm/result.hpp"

namespace beam::loader {

// One operand as the emitter sees it. Kinds: x y c (term) f (label number) u (raw) p (pointer).
struct Arg {
    char kind;
    Word w;
};
inline Arg ux(Word v) { return {'u', v}; }
inline Arg px(const void* ptr) { return {'p', reinterpret_cast<Word>(ptr)}; }
inline Arg lbl(uint32_t label) { return {'f', label}; }
inline Arg cterm(Term t) { return {'c', t.raw}; }

class Emitter {
public:
    Emitter(ModuleCode& mc, uint32_t label_count);

    // Emits `base` with operands; false if no variant of `base` accepts these operand kinds.
    bool try_emit(std::string_view base, std::initializer_list<Arg> args) {
        return try_emit(base, args.begin(), args.size());
    }
    bool try_emit(std::string_view base, const std::vector<Arg>& args) {
        return try_emit(base, args.data(), args.size());
    }
    bool try_emit(std::string_view base, const Arg* args, size_t n);
    // As try_emit, but a missing variant is a loader bug reported through error().
    void emit(std::string_view base, std::initializer_list<Arg> args);
    // Raw trailing words of variable-length instructions.
    void raw(Word w) { mc_.code.push_back(w); }
    void raw_any(Arg a);          // register or constant, any-encoded
    void raw_label(uint32_t label);
    // A label inside a side table; patched to the label's address at finish().
    void side_label(const Word** slot, uint32_t label);

    void bind_label(uint32_t label);
    size_t pos() const { return mc_.code.size(); }
    // Resolves every label reference to an address. After this the code must not grow.
    Result<void> finish();
    const Word* address_of_label(uint32_t label) const;

    // First problem found while emitting (variant missing, label bound twice, ...).
    bool failed() const { return !error_.empty(); }
    const std::string& error() const { return error_; }
    void fail(std::string msg) {
        if (error_.empty()) error_ = std::move(msg);
    }

private:
    ModuleCode& mc_;
    std::vector<int64_t> label_pos_;
    std::vector<std::pair<size_t, uint32_t>> code_patches_;
    std::vector<std::pair<const Word**, uint32_t>> side_patches_;
    std::string error_;
};

// Operand conversion from the parsed form.
Arg src_arg(const Operand& o, LiteralArea& area);

}  // namespace beam::loader
