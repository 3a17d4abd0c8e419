// Loaded code: exports, fun entries, and one version of a module's code.
// Tables (which version is current, per namespace) live in vm/code_table.hpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

struct BifSpec;
struct Breakpoint;
struct ExportTrace;
struct ModuleCode;
class Namespace;

// One {M, F, A} in one namespace's export table. Calls through it always reach the current
// version. While the function is not loaded, `address` points at `stub`, an instruction that
// loads the module on demand or raises undef.
struct Export {
    Term module;
    Term function;
    uint32_t arity;
    std::atomic<const Word*> address{nullptr};
    Word stub[2];                 // [handler of i_call_undefined][this Export*]
    const BifSpec* bif = nullptr;  // set when the MFA is implemented natively
    bool instruction = false;      // the stub is an instruction (hibernate/3, call_on_load_function/1)
    bool standin = false;          // the stub continues in beamvm's own Erlang (bifs/standins.cpp)
    ModuleCode* code = nullptr;    // version `address` belongs to, when loaded
    // Made by the external term decoder outside any namespace (literal `fun m:f/a`, or
    // binary_to_term); callers resolve it in the calling process's namespace first.
    bool detached = false;
    // The namespace whose table holds this entry (null when detached). A call through an
    // entry of another namespace than the caller's is resolved in the caller's namespace
    // first (Namespace::foreign, docs/namespaces.md); `index` is this entry's slot in every
    // namespace's table of such translations.
    Namespace* owner = nullptr;
    uint32_t index = UINT32_MAX;
    // Global call tracing (vm/breakpoints.hpp): read and set through std::atomic_ref.
    ExportTrace* trace = nullptr;

    bool is_loaded() const { return address.load(std::memory_order_acquire) != stub; }
};

// A fun defined in a module (FunT chunk). Closures point at it.
struct FunEntry {
    Term module;
    Term function;      // the generated function name, e.g. '-main/0-fun-0-'
    uint32_t arity;     // arity of the generated function: fun arity + num_free
    uint32_t num_free;
    uint32_t index;     // position in FunT (OTP's old_index)
    uint32_t old_uniq;
    const Word* address = nullptr;
    ModuleCode* code = nullptr;
    uint8_t md5[16] = {};  // the module's md5 (OTP 25 writes it as NEW_FUN_EXT's Uniq)
    // Made by binary_to_term for a fun whose code was not loaded (or did not match) when it was
    // decoded: `address` and `code` are null, `function` is [] (fun_info's name, as OTP). A call
    // resolves it against the caller's namespace then (vm/fun_resolve.cpp).
    bool detached = false;
    uint32_t new_index = 0;  // NEW_FUN_EXT's Index (`index` is its OldIndex); equal for loaded code
    uint32_t fun_arity() const { return arity - num_free; }
};

//   Local fun  [hdr Fun arity=2+num_free][FunEntry*][creator pid][free var 1]...[free var N]
//   Export fun [hdr Export arity=1][Export*]
// The creator is a term (the GC scans it with the free variables): OTP 25 keeps the pid of
// the process that made the closure and writes it in NEW_FUN_EXT.
inline constexpr size_t FUN_HEADER_WORDS = 3;  // header, FunEntry*, creator
inline FunEntry* fun_entry(Term f) { return reinterpret_cast<FunEntry*>(boxed_ptr(f)[1].raw); }
inline Term fun_creator(Term f) { return boxed_ptr(f)[2]; }
inline Term* fun_free_vars(Term f) { return boxed_ptr(f) + FUN_HEADER_WORDS; }
inline size_t fun_num_free(Term f) { return header_arity(box_header(f)) - (FUN_HEADER_WORDS - 1); }
// Writes the fixed part of a closure at hp (FUN_HEADER_WORDS + num_free words); the caller
// fills fun_free_vars.
inline Term make_fun_at(Term* hp, FunEntry* fe, Term creator, size_t num_free) {
    hp[0] = make_header(Sub::Fun, FUN_HEADER_WORDS - 1 + num_free);
    hp[1] = Term{reinterpret_cast<Word>(fe)};
    hp[2] = creator;
    return make_boxed(hp);
}
inline Export* export_of(Term f) { return reinterpret_cast<Export*>(boxed_ptr(f)[1].raw); }
inline constexpr size_t EXPORT_FUN_WORDS = 2;

// Address → function and line, for stack traces and function_clause.
struct FunctionInfo {
    const Word* start;  // the func_info instruction in front of the function
    const Word* end;    // start of the next function
    const Word* entry;  // first instruction of the body (where calls land)
    Term name;
    uint32_t arity;
    // Its call-tracing breakpoint once it has been traced (vm/breakpoints.hpp), owned by
    // ModuleCode::breakpoints; read and set through std::atomic_ref.
    Breakpoint* bp = nullptr;
    bool declared_nif = false;  // named by a -nifs attribute (ModuleCode::declares_nifs)
};
struct NifModule;

struct LineRecord {
    const Word* address;  // first instruction that carries this location
    uint32_t file;        // index into ModuleCode::files
    uint32_t line;
};

// One version of a module's code. Immutable once committed.
struct ModuleCode {
    Term name;
    std::string path;  // the file it was loaded from ("" for code loaded from a binary)
    std::vector<Word> code;
    LiteralArea literals;
    std::vector<std::unique_ptr<FunEntry>> funs;
    std::vector<FunctionInfo> functions;  // sorted by start
    std::vector<LineRecord> lines;        // sorted by address
    std::vector<Term> files;              // file names as Erlang strings (literal lists)
    std::vector<std::pair<Term, uint32_t>> exports;
    std::vector<std::pair<Term, uint32_t>> all_functions;
    Term attributes = NIL;
    Term compile_info = NIL;
    uint8_t md5[16] = {};
    const Word* on_load = nullptr;
    std::atomic<bool> nifs_loaded{false};  // load_nif/2 ran for beamvm's built-in natives (a library: `nif`)
    // The NIF library load_nif/2 bound to this version (nif/nif_module.hpp); its unload
    // callback runs when the version is freed.
    std::shared_ptr<NifModule> nif;
    // It imports erlang:load_nif/2, so each function starts with a nif_slot instruction.
    bool nif_slots = false;
    // It has -nifs attributes (the compiler left no trace of them but a nif_start instruction
    // at the start of each function they name): load_nif/2 then binds only those functions.
    bool declares_nifs = false;
    // Operand tables of complex instructions (bit syntax), owned here, pointed to by the code.
    std::vector<std::shared_ptr<void>> side_tables;
    // Call-tracing breakpoints of its functions (vm/breakpoints.hpp), made under the VM's
    // CallTracing::mutex and freed with the version.
    std::vector<std::shared_ptr<Breakpoint>> breakpoints;

    const FunctionInfo* function_at(const Word* pc) const;
    const LineRecord* line_at(const Word* pc) const;
    bool contains(const Word* pc) const { return pc >= code.data() && pc < code.data() + code.size(); }
};

}  // namespace beam
