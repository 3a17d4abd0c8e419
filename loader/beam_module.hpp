// A .beam file parsed into plain data: chunks decoded, code as generic instructions.
// Nothing here touches running code; the transform stage (loader/transform.cpp) turns this
// into threaded code for one ModuleCode.
#pragma once

#include <array>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "vm/heap.hpp"
#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beam::loader {

// Operand kinds of the compact term encoding, after decoding.
enum class OpKind : uint8_t {
    Unsigned,   // tag u: an untagged number (arity, size, count, ...)         -> value
    Integer,    // tag i: an integer constant that fits int64                  -> value
    Atom,       // tag a: atom (value 0 means [] and is decoded as Nil)        -> term
    Nil,        // the atom index 0 case, and the `nil` operand
    X,          // x register                                                  -> value
    Y,          // y register                                                  -> value
    Label,      // f: label number (0 = no label)                              -> value
    Char,       // h: character                                                -> value
    FloatReg,   // z/2: float register                                         -> value
    Literal,    // z/4: literal term (also big integers from the i tag)        -> term
    List,       // z/1: a list of operands (select lists)                      -> list
    AllocList,  // z/3: allocation list; words/floats/funs                     -> value = total words
    Overflow,   // tag u with a value beyond 64 bits (OTP's TAG_o): no value; only the
                // operands that can take it accept it (loader/parse_code.cpp)
};

struct Operand;

// The elements of a List operand (select lists, put_tuple2's elements, ...). One pointer in
// the operand, the elements on the heap only for the few operands that have any: a module's
// generic code holds tens of thousands of operands while it is transformed, and with a
// vector in each (24 bytes) they were the largest part of start-up's peak memory
// (docs/benchmarks.md, "Issue 11: quick start-up").
class OperandList {
public:
    OperandList() = default;
    OperandList(const OperandList& other);
    OperandList& operator=(const OperandList& other);
    OperandList(OperandList&&) noexcept = default;
    OperandList& operator=(OperandList&&) noexcept = default;
    ~OperandList();

    size_t size() const;
    bool empty() const { return size() == 0; }
    const Operand& operator[](size_t i) const;
    const Operand* begin() const;
    const Operand* end() const;
    void reserve(size_t n);
    void push_back(Operand op);

private:
    std::unique_ptr<std::vector<Operand>> items_;  // null when empty
};

// Fields ordered largest first: 32 bytes (the kind after the value had cost 8 of padding).
struct Operand {
    Operand() = default;
    explicit Operand(OpKind k) : kind(k) {}

    int64_t value = 0;
    Term term = NIL;                 // Atom, Nil, Literal
    OperandList list;                // List
    int32_t type_index = -1;         // typed register (z/5): index into the Type chunk, else -1
    OpKind kind = OpKind::Unsigned;
};

inline OperandList::OperandList(const OperandList& other)
    : items_(other.items_ ? std::make_unique<std::vector<Operand>>(*other.items_) : nullptr) {}
inline OperandList& OperandList::operator=(const OperandList& other) {
    if (this != &other) items_ = other.items_ ? std::make_unique<std::vector<Operand>>(*other.items_) : nullptr;
    return *this;
}
inline OperandList::~OperandList() = default;
inline size_t OperandList::size() const { return items_ ? items_->size() : 0; }
inline const Operand& OperandList::operator[](size_t i) const { return (*items_)[i]; }
inline const Operand* OperandList::begin() const { return items_ ? items_->data() : nullptr; }
inline const Operand* OperandList::end() const { return items_ ? items_->data() + items_->size() : nullptr; }
inline void OperandList::reserve(size_t n) {
    if (!items_) items_ = std::make_unique<std::vector<Operand>>();
    items_->reserve(n);
}
inline void OperandList::push_back(Operand op) {
    if (!items_) items_ = std::make_unique<std::vector<Operand>>();
    items_->push_back(std::move(op));
}

// A generic instruction's operands: consecutive Operands in the module's OperandPool.
class OperandRange {
public:
    OperandRange() = default;
    OperandRange(const Operand* first, uint32_t n) : first_(first), n_(n) {}
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const Operand& operator[](size_t i) const { return first_[i]; }
    const Operand* begin() const { return first_; }
    const Operand* end() const { return first_ + n_; }

private:
    const Operand* first_ = nullptr;
    uint32_t n_ = 0;
};

// The operands of a module's generic code, in blocks that never move, so that the ranges
// handed out stay valid as the pool grows. Parsing an instruction allocates nothing: a vector
// per instruction cost 5% of loading a module (docs/benchmarks.md, "Issue 11: session 9
// changes").
class OperandPool {
public:
    // Room for `n` consecutive operands, default-constructed; n <= BLOCK. The first call
    // allocates even for n == 0: a module with no functions begins with int_code_end, which
    // has no operands (code_SUITE:bad_beam_file), and back() of no block is undefined.
    Operand* take(size_t n) {
        if (used_ + n > BLOCK || blocks_.empty()) {
            blocks_.push_back(std::make_unique<Operand[]>(BLOCK));
            used_ = 0;
        }
        Operand* at = blocks_.back().get() + used_;
        used_ += n;
        return at;
    }
    static constexpr size_t BLOCK = 512;  // more than any generic instruction's arity

private:
    std::vector<std::unique_ptr<Operand[]>> blocks_;
    size_t used_ = BLOCK;
};

struct GenericInstr {
    uint8_t opcode;  // generic opcode number, see loader/generic_ops.def
    OperandRange args;
};

struct ImportEntry {
    Term module;
    Term function;
    uint32_t arity;
};
struct ExportEntry {
    Term function;
    uint32_t arity;
    uint32_t label;
};
struct LambdaEntry {
    Term function;
    uint32_t arity;
    uint32_t label;
    uint32_t index;
    uint32_t num_free;
    uint32_t old_uniq;
};
struct LineItem {  // one entry of the Line chunk's table; index 0 is "no location"
    uint32_t file;  // index into ParsedModule::files (0 = the module's own source file)
    uint32_t line;
};

struct ParsedModule {
    Term name;                          // module name atom
    std::vector<Term> atoms;            // atoms[i] is atom number i (1-based; atoms[0] unused = NIL)
    std::vector<ImportEntry> imports;
    std::vector<ExportEntry> exports;
    std::vector<ExportEntry> locals;
    std::vector<LambdaEntry> lambdas;
    std::vector<Term> literals;         // allocated in the caller's LiteralArea
    std::vector<uint8_t> strings;       // StrT chunk
    std::vector<LineItem> line_items;   // Line chunk: item index -> location
    std::vector<std::string> files;     // Line chunk file names (UTF-8)
    Term attributes = NIL;              // Attr chunk decoded (literal area), [] if absent
    Term compile_info = NIL;            // CInf chunk decoded, [] if absent
    uint8_t md5[16] = {};               // MD5 of the code-relevant chunks (module_info(md5))
    uint32_t label_count = 0;
    uint32_t function_count = 0;
    std::vector<GenericInstr> code;     // in file order, including label/func_info/int_code_end
    OperandPool operands;               // what code's instructions point into
};

// Parses a whole .beam file. Literals and other decoded terms go into `literals`.
// Every inconsistency returns an Error whose message names the chunk and the reason.
// `stripped`: without line numbers, attributes and compile info, as OTP's emulator carries its
// preloaded modules (erts' ebin: erlang, init, zlib, prim_file, ...), so stack traces through
// them and their module_info/1 look as in erl.
Result<ParsedModule> parse_beam(std::span<const uint8_t> bytes, LiteralArea& literals, bool stripped = false);
// module_info(md5) of a .beam file's bytes, without loading it (code:module_status/1).
Result<std::array<uint8_t, 16>> beam_md5(std::span<const uint8_t> bytes);

}  // namespace beam::loader
