// erts_debug: the debugging functions OTP code calls in ordinary use. flat_size/1 is the one
// compile's `time` option calls after every pass.
#include <unordered_set>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/ext_ids.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

// Sizes of OTP's own objects on a 64-bit emulator (erl_binary.h, erl_fun.h, erl_term.h),
// where beamvm's layout differs.
constexpr size_t OTP_PROC_BIN_SIZE = 6;     // ProcBin: off-heap binary reference
constexpr size_t OTP_SUB_BIN_SIZE = 5;      // ErlSubBin
constexpr size_t OTP_FUN_SIZE = 5;          // ErlFunThing without its environment (local or export)
constexpr size_t OTP_REF_SIZE = 3;          // local reference: header + three 32-bit ids
constexpr size_t OTP_FLATMAP_WORDS = 3;     // header, size, keys tuple pointer

// A sub-binary as OTP's size_object counts it: the underlying ProcBin, or a heap binary of
// just the bytes in view, plus a sub-binary header when it is not byte-aligned.
size_t sub_bin_size(const Term* sb) {
    Term orig = sb[1];
    size_t bit_offset = sb[2].raw, bit_size = sb[3].raw;
    size_t odd_bits = (bit_offset & 7) + (bit_size & 7);
    size_t extra_bytes = odd_bits > 8 ? 2 : odd_bits > 0 ? 1 : 0;
    size_t sum = extra_bytes ? OTP_SUB_BIN_SIZE : 0;
    if (header_sub(box_header(orig)) == Sub::RefcBin) return sum + OTP_PROC_BIN_SIZE;
    return sum + heap_bin_words((bit_size >> 3) + extra_bytes);
}

// True if `x` is in the process's heap (young, old or a fragment): not a literal of a module
// or persistent_term.
bool on_heap(const Process& p, const Term* x) {
    if (x >= p.heap && x < p.hend) return true;
    if (x >= p.old_heap && x < p.old_hend) return true;
    for (const HeapFragment* f = p.fragments; f; f = f->next)
        if (x >= f->words && x < f->words + f->size) return true;
    return false;
}

enum class Sharing {
    None,       // flat_size/1: every path counted (OTP's size_object)
    Shared,     // size/1: each object once
    HeapOnly,   // size_shared/1: each object once, literals not counted
};

// The words a copy of `t` takes in OTP's layout (OTP's size_object and size_shared, erl_copy.c).
// Iterative: deep lists must not exhaust the C stack.
size_t otp_size(const Process* p, Term t, Sharing mode) {
    size_t sum = 0;
    std::vector<Term> todo{t};
    std::unordered_set<const Term*> seen;
    auto first_visit = [&](const Term* obj) {
        if (mode == Sharing::None) return true;
        if (mode == Sharing::HeapOnly && !on_heap(*p, obj)) return false;
        return seen.insert(obj).second;
    };
    while (!todo.empty()) {
        Term u = todo.back();
        todo.pop_back();
        if (is_list(u)) {
            if (!first_visit(list_ptr(u))) continue;
            sum += 2;
            todo.push_back(head(u));
            todo.push_back(tail(u));
            continue;
        }
        if (!is_boxed(u)) continue;
        const Term* obj = boxed_ptr(u);
        if (!first_visit(obj)) continue;
        size_t arity = header_arity(obj[0]);
        switch (header_sub(obj[0])) {
        case Sub::Tuple:  // OTP 25's {} is one shared global literal, counted as 0
            sum += arity ? 1 + arity : 0;
            todo.insert(todo.end(), obj + 1, obj + 1 + arity);
            break;
        case Sub::Map:  // [hdr][keys tuple][values]
            sum += OTP_FLATMAP_WORDS + (arity - 1);
            todo.insert(todo.end(), obj + 1, obj + 1 + arity);
            break;
        case Sub::HashMap:  // OTP keeps the bitmap in the header word; we give it a word
            sum += arity;
            todo.insert(todo.end(), obj + 2, obj + 1 + arity);
            break;
        case Sub::Fun:  // [hdr][FunEntry*][creator pid][free variables]
            sum += OTP_FUN_SIZE + (arity - 2);
            todo.insert(todo.end(), obj + 3, obj + 1 + arity);
            break;
        case Sub::Export: sum += OTP_FUN_SIZE; break;  // OTP 25: a fun thing without environment
        case Sub::Ref: sum += OTP_REF_SIZE; break;
        // erts 25 on 64-bit: header, next and node words, then a 32-bit length and the ids
        // packed two to a word (external pids and ports are 4 words, as here).
        case Sub::ExtRef: sum += 3 + ext_ref_len(u) / 2 + 1; break;
        case Sub::RefcBin: sum += OTP_PROC_BIN_SIZE; break;
        case Sub::SubBin: sum += sub_bin_size(obj); break;
        case Sub::MatchState:  // never a value a program can hold; counted as its binary
            todo.push_back(obj[1]);
            break;
        default: sum += 1 + arity; break;  // bignums, floats, heap binaries, external ids
        }
    }
    return sum;
}

Term flat_size_1(Process* p, const Term* a) { return make_integer_u(*p, otp_size(p, a[0], Sharing::None)); }
Term size_1(Process* p, const Term* a) { return make_integer_u(*p, otp_size(p, a[0], Sharing::Shared)); }
Term size_shared_1(Process* p, const Term* a) { return make_integer_u(*p, otp_size(p, a[0], Sharing::HeapOnly)); }
// The same object: one immediate, or one heap cell (no comparison of contents).
Term same_2(Process*, const Term* a) { return make_bool(a[0] == a[1]); }

// Lock counting (erts' lcnt build) does not exist in beamvm, as in erts' ordinary build:
// lcnt_clear/0 and lcnt_collect/0 answer `error`, lcnt_control/1,2 raise badarg.
Term lcnt_error_0(Process*, const Term*) { return am::error; }
Term lcnt_control(Process* p, const Term*) { return p->badarg(); }

constexpr BifSpec table[] = {
    {"erts_debug", "lcnt_clear", 0, &lcnt_error_0},
    {"erts_debug", "lcnt_collect", 0, &lcnt_error_0},
    {"erts_debug", "lcnt_control", 1, &lcnt_control},
    {"erts_debug", "lcnt_control", 2, &lcnt_control},
    {"erts_debug", "flat_size", 1, &flat_size_1},
    {"erts_debug", "size", 1, &size_1},
    {"erts_debug", "size_shared", 1, &size_shared_1},
    {"erts_debug", "same", 2, &same_2},
};

}  // namespace

std::span<const BifSpec> debug_bifs() { return table; }

}  // namespace beam
